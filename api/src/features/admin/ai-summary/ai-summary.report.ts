/**
 * Turns whatever the admin page sends as `reportData` into one shape: the digest report JSON
 * ({generatedAt, timeframe, roadmap: [...] | {newItems, changedItems}, messageCenter: {newItems, updatedItems}}),
 * a JSON string of it, a list of unified items, or plain text (an uploaded file that is not JSON).
 */

import { SOURCE_LINK_PARAMS } from '@radar/contracts';

export type ReportChange = 'new' | 'updated' | 'listed';

export interface ReportItem {
  source: 'roadmap' | 'messages';
  change: ReportChange;
  id: string;
  title: string;
  products: string[];
  status: string | null;
  isMajorChange: boolean;
  actionRequiredBy: string | null;
  link: string;
  /** Plain text, shortened. */
  summary: string;
}

export type NormalizedReport = { kind: 'report'; generatedAt: string | null; timeframe: string | null; items: ReportItem[] } | { kind: 'text'; text: string };

const SUMMARY_CHARS = 240;
/** Plain-text uploads are cut here before anything else looks at them. */
export const MAX_TEXT_CHARS = 20_000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

export function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The products (roadmap) or services (Message Center) of an item: the first of `products`, `service`, `services`
 * and `product` that names any. A roadmap row's empty `service` list must not hide its `product`.
 */
function productsOf(item: Obj): string[] {
  for (const raw of [item.products, item.service, item.services, item.product]) {
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
    const names = [...new Set(list.map((p) => (typeof p === 'string' ? p.trim() : '')).filter(Boolean))];
    if (names.length) return names;
  }
  return [];
}

function sourceOf(item: Obj, fallback: ReportItem['source']): ReportItem['source'] {
  if (item.source === 'roadmap' || item.source === 'messages') return item.source;
  if (item.source === 'message_center' || str(item.messageId)) return 'messages';
  if (str(item.itemId)) return 'roadmap';
  return fallback;
}

function changeOf(item: Obj, fallback: ReportChange): ReportChange {
  const c = str(item.changeType) ?? str(item.change);
  if (c && /^new/i.test(c)) return 'new';
  if (c && /^(changed|updated|update)/i.test(c)) return 'updated';
  return fallback;
}

function itemFrom(raw: unknown, source: ReportItem['source'], change: ReportChange, publicUrl: string): ReportItem | null {
  if (!isObj(raw)) return null;
  const src = sourceOf(raw, source);
  const id = str(raw.itemId) ?? str(raw.messageId) ?? str(raw.issueId) ?? str(raw.id)?.replace(/^(roadmap|messages|health)-/, '') ?? '';
  const title = str(raw.title) ?? (id ? `Item ${id}` : null);
  if (!title) return null;
  const given = [raw.link, raw.url, raw.moreInfoLink].map(str).find((u) => u !== null && /^https?:\/\//i.test(u));
  const base = publicUrl.replace(/\/$/, '');
  const link = given ?? (id ? `${base}/dashboard?${SOURCE_LINK_PARAMS[src]}=${encodeURIComponent(id)}` : `${base}/dashboard`);
  const text = str(raw.summary) ?? str(raw.description) ?? str(raw.bodyContent) ?? '';
  return {
    source: src,
    change: changeOf(raw, change),
    id,
    title: shorten(stripHtml(title), 300),
    products: productsOf(raw),
    status: str(raw.status),
    isMajorChange: raw.isMajorChange === true,
    actionRequiredBy: str(raw.actionRequiredByDate) ?? str(raw.actionRequiredBy),
    link,
    summary: shorten(stripHtml(text), SUMMARY_CHARS),
  };
}

function collect(value: unknown, source: ReportItem['source'], change: ReportChange, publicUrl: string, out: ReportItem[]): void {
  if (Array.isArray(value)) {
    for (const raw of value) {
      const item = itemFrom(raw, source, change, publicUrl);
      if (item) out.push(item);
    }
    return;
  }
  if (!isObj(value)) return;
  collect(value.newItems, source, 'new', publicUrl, out);
  collect(value.updatedItems, source, 'updated', publicUrl, out);
  collect(value.changedItems, source, 'updated', publicUrl, out);
  collect(value.items, source, change, publicUrl, out);
}

export function normalizeReport(reportData: unknown, publicUrl: string): NormalizedReport {
  let data = reportData;
  if (typeof data === 'string') {
    const text = data.trim();
    try {
      data = JSON.parse(text);
    } catch {
      return { kind: 'text', text: text.slice(0, MAX_TEXT_CHARS) };
    }
    if (typeof data !== 'object' || data === null) return { kind: 'text', text: text.slice(0, MAX_TEXT_CHARS) };
  }
  const items: ReportItem[] = [];
  if (Array.isArray(data)) {
    collect(data, 'roadmap', 'listed', publicUrl, items);
  } else if (isObj(data)) {
    collect(data.roadmap, 'roadmap', 'listed', publicUrl, items);
    collect(data.messageCenter ?? data.messages, 'messages', 'listed', publicUrl, items);
    collect(data.items, 'roadmap', 'listed', publicUrl, items);
    collect({ newItems: data.newItems, updatedItems: data.updatedItems, changedItems: data.changedItems }, 'roadmap', 'listed', publicUrl, items);
  }
  const looksLikeReport = isObj(data) && ('roadmap' in data || 'messageCenter' in data || 'generatedAt' in data);
  if (items.length === 0 && !looksLikeReport) {
    // JSON, but not a report we recognise: summarise its text.
    return { kind: 'text', text: JSON.stringify(data, null, 2).slice(0, MAX_TEXT_CHARS) };
  }
  // The admin page sends the timeframe as a number of days (1, 7, 30); other reports may spell it out.
  const timeframe = isObj(data) ? str(data.timeframe) : null;
  return {
    kind: 'report',
    generatedAt: isObj(data) ? str(data.generatedAt) : null,
    timeframe: timeframe && /^\d+$/.test(timeframe) ? `${timeframe} days` : timeframe,
    items,
  };
}

/** Major changes and anything with an action-required date come first in every summary. */
export function needsAttention(item: ReportItem): boolean {
  return item.isMajorChange || item.actionRequiredBy !== null;
}

export function countsOf(items: ReportItem[]) {
  const count = (source: ReportItem['source'], change: ReportChange) => items.filter((i) => i.source === source && i.change === change).length;
  return {
    roadmapNew: count('roadmap', 'new'),
    roadmapUpdated: count('roadmap', 'updated'),
    roadmapListed: count('roadmap', 'listed'),
    messagesNew: count('messages', 'new'),
    messagesUpdated: count('messages', 'updated'),
    messagesListed: count('messages', 'listed'),
    attention: items.filter(needsAttention).length,
  };
}
