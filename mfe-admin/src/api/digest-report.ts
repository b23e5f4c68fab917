import {
  CHANGED_CHANGE_TYPES,
  CHANGE_TYPE_DAYS,
  DIGEST_REPORT_LIMIT,
  NEW_CHANGE_TYPES,
  type ItemListResponse,
  type UnifiedItem,
} from '@radar/contracts';
import { apiRequest, stripHtml, truncate } from '@radar/shared-ui';

export type DigestTimeframe = 1 | 7 | 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const REPORT_TEXT_CHARS = 500;

/** One report row: the fields the tables and the summary read, plus a link back to the item. */
export interface DigestReportItem {
  source: 'roadmap' | 'messages';
  itemId: string | null;
  messageId: string | null;
  title: string;
  product: string | null;
  status: string | null;
  service: string[];
  tags: string[];
  isMajorChange: boolean;
  userImpact: boolean;
  adminImpact: boolean;
  actionRequiredByDate: string | null;
  createdDate: string | null;
  modifiedDate: string | null;
  publishedDate: string | null;
  lastUpdatedDate: string | null;
  /** Plain text, shortened. */
  summary: string;
  link: string;
}

/** Spec 02 §3 digest report; the AI summary request sends it as reportData. */
export interface DigestReport {
  generatedAt: string;
  timeframe: DigestTimeframe;
  roadmap: { newItems: DigestReportItem[]; changedItems: DigestReportItem[] };
  messageCenter: { newItems: DigestReportItem[]; updatedItems: DigestReportItem[] };
}

/** new_1_day + changed_1_day, new_7days + changed_7days, new_30days + changed_30days. */
export function changeTypesFor(days: DigestTimeframe): [string, string] {
  const pick = (options: readonly string[]) => options.find((o) => CHANGE_TYPE_DAYS[o as keyof typeof CHANGE_TYPE_DAYS] === days)!;
  return [pick(NEW_CHANGE_TYPES), pick(CHANGED_CHANGE_TYPES)];
}

export function itemsUrl(source: 'roadmap' | 'messages', days: DigestTimeframe): string {
  const path = source === 'roadmap' ? '/api/roadmap/items' : '/api/message-center/items';
  const query = new URLSearchParams({ changeTypes: changeTypesFor(days).join(','), page: '1', limit: String(DIGEST_REPORT_LIMIT) });
  return `${path}?${query.toString()}`;
}

function toReportItem(item: UnifiedItem, origin: string): DigestReportItem {
  const isRoadmap = item.source === 'roadmap';
  const id = (isRoadmap ? item.itemId : item.messageId) ?? '';
  return {
    source: item.source,
    itemId: item.itemId,
    messageId: item.messageId,
    title: item.title,
    product: item.product,
    status: item.status,
    service: item.service ?? (item.services ? item.services.split(',').map((s) => s.trim()).filter(Boolean) : []),
    tags: item.tags,
    isMajorChange: item.isMajorChange,
    userImpact: item.userImpact,
    adminImpact: item.adminImpact,
    actionRequiredByDate: item.actionRequiredByDate ?? null,
    createdDate: item.createdDate,
    modifiedDate: item.modifiedDate,
    publishedDate: item.publishedDate,
    lastUpdatedDate: item.lastUpdatedDate,
    summary: truncate(stripHtml(item.summary ?? item.description ?? ''), REPORT_TEXT_CHARS),
    link: `${origin}/dashboard?${isRoadmap ? 'roadmap' : 'message'}=${encodeURIComponent(id)}`,
  };
}

/**
 * The server answers one list per source with both options OR-ed; an item is new when it was created (roadmap)
 * or published (message) inside the window, otherwise it is there because it changed.
 */
export function splitNewAndChanged(items: UnifiedItem[], days: DigestTimeframe, now: Date, origin: string) {
  const since = now.getTime() - days * DAY_MS;
  const newItems: DigestReportItem[] = [];
  const changed: DigestReportItem[] = [];
  for (const item of items) {
    const started = item.createdDate ?? item.publishedDate;
    const startedMs = started ? new Date(started).getTime() : Number.NaN;
    (startedMs >= since ? newItems : changed).push(toReportItem(item, origin));
  }
  return { newItems, changed };
}

/** Builds the digest report from GET /api/roadmap/items and GET /api/message-center/items (page 1, limit 1000). */
export async function buildDigestReport(days: DigestTimeframe, now: Date = new Date(), origin: string = window.location.origin): Promise<DigestReport> {
  const [roadmap, messages] = await Promise.all([
    apiRequest<ItemListResponse>('GET', itemsUrl('roadmap', days)),
    apiRequest<ItemListResponse>('GET', itemsUrl('messages', days)),
  ]);
  const r = splitNewAndChanged(roadmap?.items ?? [], days, now, origin);
  const m = splitNewAndChanged(messages?.items ?? [], days, now, origin);
  return {
    generatedAt: now.toISOString(),
    timeframe: days,
    roadmap: { newItems: r.newItems, changedItems: r.changed },
    messageCenter: { newItems: m.newItems, updatedItems: m.changed },
  };
}

export interface SummaryResult {
  summary: string;
  kind: 'ai' | 'extractive';
  model: string | null;
}

/** POST /api/admin/generate-summary: reportData is the report, an uploaded JSON value, or uploaded text. */
export const generateSummary = (reportData: unknown) => apiRequest<SummaryResult>('POST', '/api/admin/generate-summary', { reportData });

/** An uploaded file's text: parsed as JSON when it is JSON, otherwise used as plain text (spec 02 §5). */
export function parseUploadedReport(text: string): { kind: 'json'; data: unknown } | { kind: 'text'; data: string } {
  try {
    return { kind: 'json', data: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'text', data: text };
  }
}
