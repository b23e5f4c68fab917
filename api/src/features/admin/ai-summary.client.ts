import { HttpError } from '../../http/errors.js';
import { countsOf, needsAttention, type NormalizedReport, type ReportItem } from './ai-summary.report.js';

export class AiUpstreamError extends HttpError {
  override readonly name = 'AiUpstreamError';
  override readonly status = 502;
}
export class AiTimeoutError extends HttpError {
  override readonly name = 'AiTimeoutError';
  override readonly status = 504;
  constructor() {
    super('AI summary timed out');
  }
}

export interface AiSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** Keeps the request well inside small models' context windows; the rest is counted, not sent. */
export const MAX_PROMPT_CHARS = 24_000;

export const SYSTEM_PROMPT = [
  'You write briefings for Microsoft 365 administrators from a report of Microsoft 365 Roadmap items and Message Center posts.',
  'Answer with an HTML fragment only: no <html>, <head> or <body>, no Markdown, no code fences. Use only the tags h3, p, ul, li, strong, em and a.',
  'Structure:',
  '1. A short overview paragraph (2-3 sentences): volume, the main themes, and what matters most this period.',
  '2. <h3>Action required</h3>: every major change and every post with an action-required date, with the date and what the admin must do. Leave the section out if there are none.',
  '3. <h3> per product or service with the notable new and updated items as list entries: one sentence each on what changes and who is affected, the item id, and a link on the title using exactly the URL given in the data.',
  '4. <h3>Recommended next steps</h3>: 3 to 5 concrete actions for the admin.',
  'Be factual and concise. Use only the items and links in the data; never invent items, dates or URLs. Say when a feature is in preview or still in development. If the report has no items, say so in one sentence.',
].join('\n');

function line(item: ReportItem): string {
  const facts = [
    item.id && `[${item.id}]`,
    item.title,
    item.products.length ? `products: ${item.products.join(', ')}` : null,
    item.status && `status: ${item.status}`,
    item.isMajorChange ? 'MAJOR CHANGE' : null,
    item.actionRequiredBy && `action required by: ${item.actionRequiredBy}`,
    `link: ${item.link}`,
    item.summary && `summary: ${item.summary}`,
  ].filter(Boolean);
  return `- ${facts.join(' | ')}`;
}

/** The user message: a compact, size-bounded rendering of the report (attention items first in each section). */
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
  const sections: [string, ReportItem[]][] = [
    ['ROADMAP - NEW', report.items.filter((i) => i.source === 'roadmap' && i.change === 'new')],
    ['ROADMAP - UPDATED', report.items.filter((i) => i.source === 'roadmap' && i.change === 'updated')],
    ['ROADMAP', report.items.filter((i) => i.source === 'roadmap' && i.change === 'listed')],
    ['MESSAGE CENTER - NEW', report.items.filter((i) => i.source === 'messages' && i.change === 'new')],
    ['MESSAGE CENTER - UPDATED', report.items.filter((i) => i.source === 'messages' && i.change === 'updated')],
    ['MESSAGE CENTER', report.items.filter((i) => i.source === 'messages' && i.change === 'listed')],
  ];
  let out = header;
  let omitted = 0;
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    const ordered = [...items.filter(needsAttention), ...items.filter((i) => !needsAttention(i))];
    out += `\n\n${title} (${items.length}):`;
    for (const item of ordered) {
      const next = `\n${line(item)}`;
      if (out.length + next.length > MAX_PROMPT_CHARS) omitted += 1;
      else out += next;
    }
  }
  if (omitted) out += `\n\n[${omitted} more items not shown for length]`;
  return out;
}

function upstreamMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (typeof json.error?.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: use the text
  }
  return body.trim().slice(0, 300);
}

/** POSTs to `${baseUrl}/chat/completions`; maps a timeout to 504 and every upstream failure to 502. */
export async function requestChatSummary(settings: AiSettings, report: NormalizedReport): Promise<{ content: string; model: string }> {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (settings.apiKey) headers.Authorization = `Bearer ${settings.apiKey}`;
  const signal = AbortSignal.timeout(settings.timeoutMs);
  let status: number;
  let body: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      signal,
      body: JSON.stringify({
        model: settings.model,
        temperature: 0.2,
        max_tokens: 1500,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: buildUserMessage(report) },
        ],
      }),
    });
    status = res.status;
    body = await res.text();
  } catch (err) {
    if (signal.aborted || (err as Error)?.name === 'TimeoutError') throw new AiTimeoutError();
    const cause = (err as { cause?: { message?: string } })?.cause?.message ?? (err as Error)?.message ?? String(err);
    throw new AiUpstreamError(`AI service unreachable: ${cause}`);
  }
  if (status < 200 || status >= 300) {
    throw new AiUpstreamError(`AI service error (${status}): ${upstreamMessage(body) || 'no details'}`);
  }
  let parsed: { model?: unknown; choices?: { message?: { content?: unknown } }[] };
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new AiUpstreamError('AI service answered with something that is not JSON');
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new AiUpstreamError('AI service returned an empty summary');
  return { content, model: typeof parsed.model === 'string' && parsed.model ? parsed.model : settings.model };
}
