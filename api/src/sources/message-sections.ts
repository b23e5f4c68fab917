import type { MessageSection, SectionKind } from '@radar/contracts';
import { htmlToPlainText } from '../lib/html.js';

/**
 * The fixed sections of a Message Center post. Since April 2026 bodies carry bracketed headings — `[What and Why:]`,
 * `[Rollout Schedule:]`, `[Impact on your organization:]` (also `[How this affects your organization:]`),
 * `[Action Required/Recommendations:]`, `[Compliance considerations:]` — and older posts still in the feed use
 * `[When this will happen:]`, `[How this will affect your organization:]` and `[What you can do to prepare:]`, or the
 * same words in bold without brackets. A heading counts when it is one of the known headings (any case, with or
 * without the colon) and stands alone in its block (`<p><b>[Rollout Schedule]</b></p>`, `<b>[…]</b>`, `<div>[…]</div>`),
 * so a bracket inside a sentence ("the All [apps] section") never splits a post.
 *
 * The body is cut at the headings: each section is the HTML between its heading and the next (unsanitised here: it is
 * sanitised when sent, like the whole body), and what comes before the first heading (an "Updated …" note) is a
 * section without a title. A post without a recognised heading has no sections and keeps its body as it is.
 */

/** Known headings (lower case, no colon, one space between words, "'" for any apostrophe) by what they mean. */
const HEADINGS: Record<string, SectionKind> = {
  introduction: 'introduction',
  'what and why': 'whatAndWhy',
  "what's changing": 'whatAndWhy',
  'what is changing': 'whatAndWhy',
  "here's what's new": 'whatAndWhy',
  'rollout schedule': 'rollout',
  'rollout timeline': 'rollout',
  'when this will happen': 'rollout',
  'when will this happen': 'rollout',
  'retirement schedule': 'rollout',
  'impact on your organization': 'impact',
  'impact to your organization': 'impact',
  'how this affects your organization': 'impact',
  'how this will affect your organization': 'impact',
  'how will this affect your organization': 'impact',
  'how does this affect my organization': 'impact',
  'action required/recommendations': 'action',
  'action required/recommendation': 'action',
  'action required and recommendations': 'action',
  'action required or recommendations': 'action',
  'actions/recommendations': 'action',
  'action required': 'action',
  'action required by compliance managers and admins': 'action',
  'what you can do to prepare': 'action',
  'what you need to do to prepare': 'action',
  'what to do to prepare': 'action',
  'compliance considerations': 'compliance',
  'additional information': 'more',
  'additional considerations': 'more',
  'known issues and limitations': 'more',
  'key points': 'more',
  faq: 'more',
};

/** "[Action Required / Recommendations:]" → "action required/recommendations". */
export function headingKey(text: string): string {
  return htmlToPlainText(text)
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s+/g, ' ')
    .replace(/[\s:.]+$/, '')
    .trim();
}

export const sectionKindOf = (heading: string): SectionKind | null => HEADINGS[headingKey(heading)] ?? null;

/** Tags that start or end a block: a heading must be alone between two of them. */
const BLOCK_TAG = /<\/?(?:p|div|li|ul|ol|h[1-6]|table|tr|td|th|blockquote|section|br|hr)\b[^>]*>/gi;
const BLANK = /^(?:\s|&nbsp;|&#160;|<\/?(?:b|strong|i|em|u|span|font|a)\b[^>]*>)*$/i;

interface Heading {
  title: string;
  kind: SectionKind;
  /** Where the heading's block starts and ends in the body. */
  start: number;
  end: number;
}

/** The block around [from, to): its start (an opening block tag, or the end of a closing one) and end. */
function blockAround(html: string, from: number, to: number): { start: number; end: number; before: string; after: string } {
  let start = 0;
  let startTagOpens = false;
  for (const m of html.slice(0, from).matchAll(BLOCK_TAG)) {
    start = m.index + (m[0].startsWith('</') || /^<(br|hr)\b/i.test(m[0]) ? m[0].length : 0);
    startTagOpens = !m[0].startsWith('</') && !/^<(br|hr)\b/i.test(m[0]);
  }
  const beforeFrom = startTagOpens ? html.indexOf('>', start) + 1 : start;
  const next = new RegExp(BLOCK_TAG.source, 'gi');
  next.lastIndex = to;
  const m = next.exec(html);
  const afterTo = m ? m.index : html.length;
  const closes = m && (m[0].startsWith('</') || /^<(br|hr)\b/i.test(m[0]));
  const end = m ? (closes ? m.index + m[0].length : m.index) : html.length;
  return { start, end, before: html.slice(beforeFrom, from), after: html.slice(to, afterTo) };
}

function findHeadings(html: string): Heading[] {
  const found: Heading[] = [];
  const candidates: { from: number; to: number; text: string }[] = [];
  // A bracketed heading, possibly with inline tags inside it ("[Rollout Schedule<b>:]</b>").
  for (const m of html.matchAll(/\[((?:[^[\]<>]|<\/?(?:b|strong|i|em|u|span)\b[^>]*>){3,160})\]/gi))
    candidates.push({ from: m.index, to: m.index + m[0].length, text: m[1] ?? '' });
  // Older posts: the heading in bold without brackets, e.g. <p><b>When this will happen:</b></p>.
  for (const m of html.matchAll(/<(b|strong)\b[^>]*>([^<]{3,90})<\/\1\s*>/gi)) {
    if (/[[\]]/.test(m[2] ?? '')) continue;
    candidates.push({ from: m.index, to: m.index + m[0].length, text: m[2] ?? '' });
  }
  candidates.sort((a, b) => a.from - b.from);
  for (const c of candidates) {
    const kind = sectionKindOf(c.text);
    if (!kind) continue;
    const block = blockAround(html, c.from, c.to);
    if (!BLANK.test(block.before) || !BLANK.test(block.after)) continue;
    const previous = found.at(-1);
    if (previous && block.start < previous.end) continue;
    found.push({ title: htmlToPlainText(c.text).replace(/[\s:]+$/, ''), kind, start: block.start, end: block.end });
  }
  return found;
}

const hasText = (html: string) => htmlToPlainText(html).replace(/\s+/g, '') !== '';

/** The body's sections in order, or [] when it has no recognised heading. */
export function messageSections(body: string): MessageSection[] {
  const headings = findHeadings(body);
  if (headings.length === 0) return [];
  const sections: MessageSection[] = [];
  const opening = body.slice(0, headings[0]?.start ?? 0);
  if (hasText(opening)) sections.push({ title: '', kind: null, html: opening.trim() });
  headings.forEach((h, i) => {
    const html = body.slice(h.end, headings[i + 1]?.start ?? body.length).trim();
    sections.push({ title: h.title, kind: h.kind, html });
  });
  return sections;
}
