/**
 * Roadmap release dates are month-granular text ("March CY2026"). These rules decide what counts as a
 * date move ("slip") and by how many months, for the api (counters kept per item, filters, e-mails) and the
 * dashboard (the dated list in the item dialog), so both always agree.
 */

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * Months since year 0 of a roadmap date ("March CY2026", "March 2026", "march cy 2026"), or null when the text is
 * not a full English month name and a four-digit year (e.g. "CY2026" or "Q1 CY2026"): such a date moves, but by an
 * unknown number of months. The migration that backfilled the counters parses with the same rule (0002 SQL).
 */
export function roadmapMonthIndex(value: string | null | undefined): number | null {
  const match = /^\s*([A-Za-z]+)\s+(?:CY\s*)?(\d{4})\s*$/i.exec(value ?? '');
  if (!match) return null;
  const month = MONTH_NAMES.indexOf((match[1] ?? '').toLowerCase());
  return month < 0 ? null : Number(match[2]) * 12 + month;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/**
 * One spelling for a roadmap date whatever feed it came from, so a change of feed is never a change of date: the v1
 * JSON and the RSS feed write "February CY2026", the v2 API "2026-02". Months become "<Month> CY<yyyy>" (the v1
 * spelling, which every stored version and history entry already uses), a bare year "CY<yyyy>", a quarter
 * "Q<n> CY<yyyy>". Anything else is kept as written (trimmed); an empty value is null.
 */
export function canonicalRoadmapDate(value: string | null | undefined): string | null {
  const text = (value ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  const iso = /^(\d{4})-(\d{1,2})(?:-\d{1,2}(?:T[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?)?$/i.exec(text);
  if (iso) {
    const month = Number(iso[2]);
    if (month >= 1 && month <= 12) return `${capitalised(MONTH_NAMES[month - 1] ?? '')} CY${iso[1]}`;
    return text;
  }
  const named = /^([A-Za-z]+) (?:CY ?)?(\d{4})$/i.exec(text);
  if (named && MONTH_NAMES.includes((named[1] ?? '').toLowerCase())) return `${capitalised(named[1] ?? '')} CY${named[2]}`;
  const year = /^(?:CY ?)?(\d{4})$/i.exec(text);
  if (year) return `CY${year[1]}`;
  const quarterFirst = /^Q([1-4]) (?:CY ?)?(\d{4})$/i.exec(text);
  if (quarterFirst) return `Q${quarterFirst[1]} CY${quarterFirst[2]}`;
  const yearFirst = /^(?:CY ?)?(\d{4}) ?-? ?Q([1-4])$/i.exec(text);
  if (yearFirst) return `Q${yearFirst[2]} CY${yearFirst[1]}`;
  return text;
}

/**
 * The days a roadmap date means (YYYY-MM-DD): a month ("March CY2026") its whole month, a quarter ("Q1 CY2026") its
 * three months, a year ("CY2026") the year; null for anything else. A GA month is when a roadmap item reaches
 * tenants: the list's timing of change.
 */
export function roadmapDateRange(value: string | null | undefined): { start: string; end: string } | null {
  const text = canonicalRoadmapDate(value);
  if (!text) return null;
  const day = (y: number, m: number, d: number) => `${y}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const last = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const month = roadmapMonthIndex(text);
  if (month !== null) {
    const [y, m] = [Math.floor(month / 12), month % 12];
    return { start: day(y, m, 1), end: day(y, m, last(y, m)) };
  }
  const quarter = /^Q([1-4]) CY(\d{4})$/.exec(text);
  if (quarter) {
    const [q, y] = [Number(quarter[1]) - 1, Number(quarter[2])];
    return { start: day(y, q * 3, 1), end: day(y, q * 3 + 2, last(y, q * 3 + 2)) };
  }
  const year = /^CY(\d{4})$/.exec(text);
  return year ? { start: `${year[1]}-01-01`, end: `${year[1]}-12-31` } : null;
}

export interface ReleaseDateMove {
  from: string;
  to: string;
  /** Months later (positive) or earlier (negative); null when either date has no month. */
  shiftMonths: number | null;
}

/**
 * A GA or preview date move: the date changed from one value to another. A date first given (empty → value) or
 * withdrawn (value → empty) is not a move, and neither is a change of spelling alone ("March CY2026" →
 * "March CY 2026", the same month).
 */
export function releaseDateMove(before: unknown, after: unknown): ReleaseDateMove | null {
  if (typeof before !== 'string' || typeof after !== 'string') return null;
  const from = before.trim();
  const to = after.trim();
  if (!from || !to || from === to) return null;
  const a = roadmapMonthIndex(from);
  const b = roadmapMonthIndex(to);
  if (a !== null && a === b) return null;
  return { from, to, shiftMonths: a !== null && b !== null ? b - a : null };
}

/** "+5 months", "−1 month", "+0 months" (a signed month count for the dialog and the e-mails). */
export function formatMonthShift(months: number): string {
  const sign = months > 0 ? '+' : months < 0 ? '−' : '+';
  const n = Math.abs(months);
  return `${sign}${n} ${n === 1 ? 'month' : 'months'}`;
}
