import { requestChat, type AiSettings } from '../../../lib/ai-chat.js';
import { countsOf, needsAttention, shorten, type NormalizedReport, type ReportItem } from './ai-summary.report.js';

/** Keeps the request well inside small models' context windows; the rest is counted, not sent. */
export const MAX_PROMPT_CHARS = 24_000;

export const SYSTEM_PROMPT = [
  'You write briefings for Microsoft 365 administrators from a report of roadmap items (the AI at Work Roadmap, formerly the Microsoft 365 Roadmap) and Message Center posts.',
  'Answer with an HTML fragment only: no <html>, <head> or <body>, no Markdown, no code fences. Use only the tags h3, p, ul, li, strong, em and a.',
  'Structure:',
  '1. A short overview paragraph (2-3 sentences): volume, the main themes, and what matters most this period.',
  '2. <h3>Action required</h3>: every major change and every post with an action-required date, with the date and what the admin must do. Leave the section out if there are none.',
  '3. <h3> per product or service with the notable new and updated items as list entries: one sentence each on what changes and who is affected, the item id, and a link on the title using exactly the URL given in the data.',
  '4. <h3>Recommended next steps</h3>: 3 to 5 concrete actions for the admin.',
  'Be factual and concise. Use only the items and links in the data; never invent items, dates or URLs. Say when a feature is in preview or still in development. If the report has no items, say so in one sentence.',
].join('\n');

/** Summary characters per line, richest first: a long report loses summary text before it loses items. */
const SUMMARY_DETAIL = [240, 120, 0] as const;
const OMITTED_NOTE_CHARS = 60;

function line(item: ReportItem, summaryChars: number): string {
  const summary = summaryChars > 0 && item.summary ? shorten(item.summary, summaryChars) : null;
  const facts = [
    item.id && `[${item.id}]`,
    item.title,
    item.products.length ? `products: ${item.products.join(', ')}` : null,
    item.status && `status: ${item.status}`,
    item.isMajorChange ? 'MAJOR CHANGE' : null,
    item.actionRequiredBy && `action required by: ${item.actionRequiredBy}`,
    `link: ${item.link}`,
    summary && `summary: ${summary}`,
  ].filter(Boolean);
  return `- ${facts.join(' | ')}`;
}

type Section = { title: string; items: ReportItem[] };

const attentionFirst = (items: ReportItem[]) => [...items.filter(needsAttention), ...items.filter((i) => !needsAttention(i))];

function sectionsOf(items: ReportItem[]): Section[] {
  const of = (source: ReportItem['source'], change: ReportItem['change']) => attentionFirst(items.filter((i) => i.source === source && i.change === change));
  return [
    { title: 'ROADMAP - NEW', items: of('roadmap', 'new') },
    { title: 'ROADMAP - UPDATED', items: of('roadmap', 'updated') },
    { title: 'ROADMAP', items: of('roadmap', 'listed') },
    { title: 'MESSAGE CENTER - NEW', items: of('messages', 'new') },
    { title: 'MESSAGE CENTER - UPDATED', items: of('messages', 'updated') },
    { title: 'MESSAGE CENTER', items: of('messages', 'listed') },
  ].filter((section) => section.items.length > 0);
}

const sectionHeading = (section: Section) => `\n\n${section.title} (${section.items.length}):`;

function render(header: string, sections: Section[], keep: (item: ReportItem) => boolean, summaryChars: number): string {
  let out = header;
  for (const section of sections) {
    const kept = section.items.filter(keep);
    if (kept.length === 0) continue;
    out += sectionHeading(section) + kept.map((item) => `\n${line(item, summaryChars)}`).join('');
  }
  return out;
}

/**
 * Picks what fits the prompt budget when even summary-less lines do not all fit. The budget is shared by both
 * sources, Message Center first: the request must carry the Message Center new and updated items, each with its
 * link, so a long roadmap list never pushes them out. Within a source, attention items come first.
 */
function pickWithinBudget(header: string, sections: Section[]): Set<ReportItem> {
  const bySource = (source: ReportItem['source']) => sections.filter((s) => s.items[0]?.source === source);
  const ordered = [...bySource('messages'), ...bySource('roadmap')].flatMap((section) => section.items.map((item) => ({ section, item })));
  const picked = new Set<ReportItem>();
  const opened = new Set<Section>();
  let size = header.length + OMITTED_NOTE_CHARS;
  for (const { section, item } of ordered) {
    const cost = line(item, 0).length + 1 + (opened.has(section) ? 0 : sectionHeading(section).length);
    if (size + cost > MAX_PROMPT_CHARS) continue;
    size += cost;
    opened.add(section);
    picked.add(item);
  }
  return picked;
}

/**
 * The user message: a compact, size-bounded rendering of the report (attention items first in each section). Every
 * item is sent when it fits, with shorter summaries (then none) before any item is left out; see pickWithinBudget.
 */
export function buildUserMessage(report: NormalizedReport): string {
  if (report.kind === 'text') {
    const text = report.text.slice(0, MAX_PROMPT_CHARS);
    const cut = report.text.length > text.length ? `\n[${report.text.length - text.length} more characters not shown]` : '';
    return `Summarise this Microsoft 365 change report for administrators:\n\n${text}${cut}`;
  }
  const c = countsOf(report.items);
  const header = [
    'Microsoft 365 change report.',
    report.generatedAt && `Generated: ${report.generatedAt}.`,
    report.timeframe && `Timeframe: ${report.timeframe}.`,
    `Roadmap: ${c.roadmapNew} new, ${c.roadmapUpdated} updated${c.roadmapListed ? `, ${c.roadmapListed} listed` : ''}.`,
    `Message Center: ${c.messagesNew} new, ${c.messagesUpdated} updated${c.messagesListed ? `, ${c.messagesListed} listed` : ''}.`,
  ]
    .filter(Boolean)
    .join(' ');
  const sections = sectionsOf(report.items);
  for (const summaryChars of SUMMARY_DETAIL) {
    const all = render(header, sections, () => true, summaryChars);
    if (all.length <= MAX_PROMPT_CHARS) return all;
  }
  const picked = pickWithinBudget(header, sections);
  const omitted = report.items.length - picked.size;
  return `${render(header, sections, (item) => picked.has(item), 0)}\n\n[${omitted} more items not shown for length]`;
}

/** POSTs to `${baseUrl}/chat/completions`; maps a timeout to 504 and every upstream failure to 502. */
export async function requestChatSummary(settings: AiSettings, report: NormalizedReport): Promise<{ content: string; model: string }> {
  return requestChat(settings, { system: SYSTEM_PROMPT, user: buildUserMessage(report), maxTokens: 1500, what: 'summary' });
}

export { AiTimeoutError, AiUpstreamError, type AiSettings } from '../../../lib/ai-chat.js';
