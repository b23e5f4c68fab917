import { compareWindows, timingSpan, type RolloutRing, type TimingWindow } from '@radar/contracts';

export { timingSpan };
import { htmlToPlainText } from '../lib/html.js';
import { messageSections } from './message-sections.js';

/**
 * Rollout timing from a Message Center post's schedule section ("[Rollout Schedule:]", "[When this will happen:]").
 * Each line of the section that names dates becomes a window per ring it names:
 *   - rings: Targeted Release (and the other early-access rings: Frontier, preview), Standard Release, Deferred
 *     Release, GCC, GCC High (GCCH), DoD; "General Availability (Worldwide)", "Worldwide" or a line naming none is
 *     `general`. "General Availability (GCC, GCC High)" names those two rings only. A line naming a ring but no date
 *     (a heading above a nested list) gives its ring to the lines below it;
 *   - dates: "early|mid|late <Month> [year]" (1–10, 11–20, 21–end), "end of <Month>" (late), "beginning of <Month>"
 *     (early), "<Month> [year]" (the whole month), "<Month> 17, 2026" (that day), "Q3 2026" / "Q3 CY2026" (its three
 *     months), "H2 2026" / "second half of 2026" (six months), "CY2026" (the year). A month without a year takes the
 *     year written next to it on the line, else the first such month from shortly before the post on;
 *   - a line with several dates ("begin in late July 2026 and complete by mid-August 2026", "from … to …", "… through
 *     …", "… – …") is one window from the start of the first to the end of the last. "(previously early July)" notes
 *     are the old dates, not these, and are ignored.
 *   - a line that says the change is already there ("Available now", "has completed rollout") and names no date is a
 *     window on the post's date: true as of then, and never "rolling out in the next days" later.
 *     A line that names no date and says none ("will be communicated at a later date") gives no window: there is
 *     no timing to show.
 * `label` is Microsoft's phrase: the date as written, or "<first> to <last>".
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_ALT =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const YEAR = '(?:CY\\s?)?(20\\d\\d)';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const monthIndex = (word: string) => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3)));
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const iso = (year: number, month: number, day: number) => `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

interface Phrase {
  text: string;
  index: number;
  start: string;
  end: string;
}

/** The year of a date phrase: its own, else the line's, else the one that puts its month nearest after the post. */
type YearOf = (explicit: string | undefined, month?: number) => number;
type Reader = { pattern: RegExp; read: (m: RegExpExecArray, year: YearOf) => { start: string; end: string } | null };

/** Part of a month: early 1–10, mid 11–20, late 21–end. */
function partOf(part: string, year: number, month: number): { start: string; end: string } {
  const p = part
    .toLowerCase()
    .replace(/[\s-]+/g, ' ')
    .trim();
  if (p === 'early' || p === 'beginning of' || p === 'start of' || p === 'the beginning of' || p === 'the start of')
    return { start: iso(year, month, 1), end: iso(year, month, 10) };
  if (p === 'mid' || p === 'middle of' || p === 'the middle of') return { start: iso(year, month, 11), end: iso(year, month, 20) };
  return { start: iso(year, month, 21), end: iso(year, month, lastDay(year, month)) };
}

const PART = '(early|mid|late|end of|end-of|the end of|beginning of|the beginning of|start of|the start of|middle of|the middle of)';

/** Most specific first: a reader's match hides the shorter ones inside it. */
const READERS: Reader[] = [
  {
    // "mid-August 2026", "late July", "end of August 2026", "Mid-June 2026"
    pattern: new RegExp(`\\b${PART}[\\s-]*(${MONTH_ALT})\\b\\.?(?:,?\\s*${YEAR})?`, 'gi'),
    read: (m, year) => {
      const month = monthIndex(m[2] ?? '');
      return month < 0 ? null : partOf(m[1] ?? '', year(m[3], month), month);
    },
  },
  {
    // "June 17, 2026", "June 17 2026"
    pattern: new RegExp(`\\b(${MONTH_ALT})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+${YEAR}\\b`, 'gi'),
    read: (m, year) => {
      const month = monthIndex(m[1] ?? '');
      const y = year(m[3], month);
      const day = Number(m[2]);
      return month < 0 || day < 1 || day > lastDay(y, month) ? null : { start: iso(y, month, day), end: iso(y, month, day) };
    },
  },
  {
    // "17 June 2026"
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_ALT})\\.?,?\\s+${YEAR}\\b`, 'gi'),
    read: (m, year) => {
      const month = monthIndex(m[2] ?? '');
      const y = year(m[3], month);
      const day = Number(m[1]);
      return month < 0 || day < 1 || day > lastDay(y, month) ? null : { start: iso(y, month, day), end: iso(y, month, day) };
    },
  },
  {
    // "Q3 2026", "Q3 CY2026", "CY2026 Q3"
    pattern: new RegExp(`\\bQ([1-4])\\s*(?:of\\s+)?${YEAR}\\b|\\b${YEAR}\\s*Q([1-4])\\b`, 'gi'),
    read: (m, year) => {
      const q = Number(m[1] ?? m[4]) - 1;
      const y = year(m[2] ?? m[3]);
      return { start: iso(y, q * 3, 1), end: iso(y, q * 3 + 2, lastDay(y, q * 3 + 2)) };
    },
  },
  {
    // "H2 2026", "H2 CY2026", "second half of 2026", "first half of calendar year 2026"
    pattern: new RegExp(`\\bH([12])\\s*${YEAR}\\b|\\b(first|second)\\s+half\\s+of\\s+(?:calendar\\s+year\\s+|CY\\s?)?(20\\d\\d)\\b`, 'gi'),
    read: (m, year) => {
      const half = m[1] ? Number(m[1]) - 1 : (m[3] ?? '').toLowerCase() === 'first' ? 0 : 1;
      const y = year(m[2] ?? m[4]);
      return { start: iso(y, half * 6, 1), end: iso(y, half * 6 + 5, lastDay(y, half * 6 + 5)) };
    },
  },
  {
    // "September 2026", "September" (the year from the line or the post)
    pattern: new RegExp(`\\b(${MONTH_ALT})\\b\\.?(?:,?\\s*${YEAR})?`, 'gi'),
    read: (m, year) => {
      const word = m[1] ?? '';
      // "may" and "mar" are also words: a bare month needs a capital letter or a year.
      if (!m[2] && !/^[A-Z]/.test(word)) return null;
      if (!m[2] && /^(may|mar)$/i.test(word) && !/^May$/.test(word)) return null;
      const month = monthIndex(word);
      if (month < 0) return null;
      const y = year(m[2], month);
      return { start: iso(y, month, 1), end: iso(y, month, lastDay(y, month)) };
    },
  },
  {
    // "CY2026", "calendar year 2026"
    pattern: /\b(?:CY\s?|calendar\s+year\s+)(20\d\d)\b/gi,
    read: (m) => {
      const y = Number(m[1]);
      return { start: iso(y, 0, 1), end: iso(y, 11, 31) };
    },
  },
];

/**
 * Every date phrase of a line, in order, without overlaps. `postDate` (YYYY-MM-DD) dates a month written without a
 * year when the line has none either: the first such month from two months before the post on ("late January" in a
 * post of December 2025 is January 2026).
 */
export function datePhrases(line: string, postDate: string): Phrase[] {
  const postYear = Number(postDate.slice(0, 4));
  const postMonth = Number(postDate.slice(5, 7)) - 1;
  const explicitYears = [...line.matchAll(/\b(20\d\d)\b/g)].map((m) => ({ index: m.index, year: Number(m[1]) }));
  const taken: [number, number][] = [];
  const phrases: Phrase[] = [];
  for (const reader of READERS) {
    reader.pattern.lastIndex = 0;
    for (let m = reader.pattern.exec(line); m; m = reader.pattern.exec(line)) {
      const from = m.index;
      const to = from + m[0].length;
      if (taken.some(([a, b]) => from < b && to > a)) continue;
      // A month without its own year takes the nearest year written after it on the line, else before it.
      const year: YearOf = (explicit, month) =>
        explicit
          ? Number(explicit)
          : (explicitYears.find((y) => y.index > from)?.year ??
            explicitYears.filter((y) => y.index < from).at(-1)?.year ??
            (month !== undefined && month < postMonth - 2 ? postYear + 1 : postYear));
      const range = reader.read(m, year);
      taken.push([from, to]);
      // "deprecated since June 2024" dates the past, not the rollout.
      if (!range || /\bsince\s+$/i.test(line.slice(Math.max(0, from - 8), from))) continue;
      phrases.push({ text: m[0].replace(/[\s,.]+$/, ''), index: from, ...range });
    }
  }
  return phrases.sort((a, b) => a.index - b.index);
}

/** The rings a line (or its lead-in before the first colon) names. */
export function ringsOf(text: string): RolloutRing[] {
  const rings = new Set<RolloutRing>();
  if (/targeted release|\bfrontier\b|\b(?:public |private )?preview\b|\bfirst release\b/i.test(text)) rings.add('Targeted');
  if (/standard release/i.test(text)) rings.add('Standard');
  if (/deferred release/i.test(text)) rings.add('Deferred');
  const clouds = text.replace(/gcc[\s-]*high|gcc-?h\b/gi, ' @GCCHIGH@ ');
  if (/@GCCHIGH@/.test(clouds)) rings.add('GCC High');
  if (/\bGCC\b/i.test(clouds)) rings.add('GCC');
  if (/\bDoD\b/i.test(clouds)) rings.add('DoD');
  // "Targeted Release (Worldwide)": Worldwide says which cloud, not that general availability starts then.
  const early = rings.has('Targeted') || rings.has('Standard') || rings.has('Deferred');
  if (/general availability|\bGA\b/i.test(text) && !(rings.has('GCC') || rings.has('GCC High') || rings.has('DoD'))) rings.add('general');
  else if (!early && /\bworldwide\b|\bWW\b|\bcommercial\b|\ball (?:customers|tenants|organizations)\b/i.test(text)) rings.add('general');
  return [...rings];
}

/** A ring's lead-in ("GCC-H:", "General Availability (Worldwide):") where a second statement starts inside one line. */
const RING_LEAD =
  /(?:^|(?<=[.;)]\s*)|(?<=\s{2}))(?:(?:Microsoft\s+)?(?:Targeted Release|Standard Release|Deferred Release|General Availability|Public Preview|Frontier|GCC[\s-]*High|GCC-?H|GCC|DoD|Worldwide)(?:\s*\([^)]{0,80}\))?(?:\s+(?:and|&)\s+(?:GCC[\s-]*High|GCC|DoD|Worldwide))?)\s*:/gi;

/** One line cut where another ring's statement starts ("…mid-September 2026. GCC-H: We will begin…"). */
function statementsOf(line: string): string[] {
  const starts = [...line.matchAll(RING_LEAD)].map((m) => m.index).filter((i) => i > 0);
  if (starts.length === 0) return [line];
  return [0, ...starts].map((from, i) => line.slice(from, starts[i] ?? line.length).trim()).filter(Boolean);
}

/** Lines of the section's HTML: a list item, paragraph or line break ends one, and so does another ring's statement. */
function linesOf(html: string): string[] {
  // Line breaks in the source are layout; the blocks are what separate lines.
  return htmlToPlainText(html.replace(/\s*\n\s*/g, ' ').replace(/<\s*(li|p|div|tr)\b[^>]*>/gi, '<br>$&'))
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .filter(Boolean)
    .flatMap(statementsOf);
}

/** "(previously early July)", "(previously: late June)", "(prev. mid-July)": the old dates. */
const PREVIOUSLY = /\((?:previously|prev\.|was|originally)\b[^)]*\)/gi;

const ALREADY =
  /\b(available now|now available|(?:is )?rolling out now|now rolling out|(?:has )?(?:completed|finished) (?:the |its )?rollout|rollout (?:is|has) (?:complete|completed|finished)|already (?:rolled out|available|launched))\b/i;

/**
 * The windows a schedule section names (see the module comment). `postDate` (YYYY-MM-DD, the post's publication: it
 * does not move when the post is revised) is the date of "available now" and dates months written without a year.
 */
export function rolloutTiming(sectionHtml: string, postDate: string): TimingWindow[] {
  const windows: TimingWindow[] = [];
  let context: RolloutRing[] = [];
  for (const raw of linesOf(sectionHtml)) {
    const line = raw.replace(PREVIOUSLY, ' ');
    const colon = line.indexOf(':');
    const lead = colon > 0 && colon < 90 ? line.slice(0, colon) : '';
    const phrases = datePhrases(line, postDate);
    const named = ringsOf(lead || (phrases.length ? line.slice(0, phrases[0]?.index) : line));
    if (phrases.length === 0) {
      const already = ALREADY.exec(line);
      if (already) {
        for (const ring of named.length ? named : context.length ? context : (['general'] as RolloutRing[]))
          if (!windows.some((w) => w.ring === ring && w.start === postDate && w.end === postDate))
            windows.push({ ring, label: capitalised(already[1] ?? ''), start: postDate, end: postDate });
      } else if (named.length) context = named;
      continue;
    }
    const rings = named.length ? named : context.length ? context : (['general'] as RolloutRing[]);
    const [first, last] = [phrases[0], phrases[phrases.length - 1]];
    const span = timingSpan(phrases.map((p) => ({ ring: 'general', label: p.text, start: p.start, end: p.end })));
    if (!first || !last || !span) continue;
    const label = first === last ? first.text : `${first.text} to ${last.text}`;
    const { start, end } = span;
    for (const ring of rings) {
      if (!windows.some((w) => w.ring === ring && w.start === start && w.end === end)) windows.push({ ring, label, start, end });
    }
  }
  return windows.sort(compareWindows);
}

/**
 * A post's rollout windows: those of its schedule sections ("[Rollout Schedule:]", "[When this will happen:]"), dated
 * from its publication (which a revision does not move). No schedule section, or no publication date: none.
 */
export function messageTiming(body: string, publishedDate: Date | null): TimingWindow[] {
  if (!publishedDate) return [];
  const postDate = publishedDate.toISOString().slice(0, 10);
  return messageSections(body)
    .filter((s) => s.kind === 'rollout')
    .flatMap((s) => rolloutTiming(s.html, postDate))
    .sort(compareWindows);
}
