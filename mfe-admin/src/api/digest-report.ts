import {
  CHANGED_CHANGE_TYPES,
  CHANGE_TYPE_DAYS,
  DIGEST_REPORT_LIMIT,
  NEW_CHANGE_TYPES,
  routes,
  type ChangeTypeOption,
  type DigestReport,
  type DigestReportItem,
  type DigestTimeframe,
  type SourceItemsQuery,
  type SourceItemsResponse,
  type UnifiedItem,
} from '@radar/contracts';
import { callEndpoint, stripHtml, truncate } from '@radar/shared-ui';

const DAY_MS = 24 * 60 * 60 * 1000;
const REPORT_TEXT_CHARS = 500;

/** new_1_day + changed_1_day, new_7days + changed_7days, new_30days + changed_30days. */
export function changeTypesFor(days: DigestTimeframe): [ChangeTypeOption, ChangeTypeOption] {
  const pick = (options: readonly ChangeTypeOption[]) => options.find((o) => CHANGE_TYPE_DAYS[o] === days) ?? options[0];
  return [pick(NEW_CHANGE_TYPES), pick(CHANGED_CHANGE_TYPES)];
}

/** The query of GET /api/roadmap/items and GET /api/message-center/items for a report (page 1, limit 1000). */
export const reportQuery = (days: DigestTimeframe): SourceItemsQuery => ({ changeTypes: changeTypesFor(days), page: 1, limit: DIGEST_REPORT_LIMIT });

const listOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function toReportItem(item: UnifiedItem, origin: string): DigestReportItem {
  const isRoadmap = item.source === 'roadmap';
  const id = (isRoadmap ? item.itemId : item.messageId) ?? '';
  return {
    source: item.source,
    itemId: item.itemId,
    messageId: item.messageId,
    title: item.title,
    // Roadmap rows keep their products; messages carry their services in the same place.
    products: isRoadmap ? listOf(item.product) : (item.service ?? listOf(item.services)),
    status: item.status,
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

const coverageOf = (answer: SourceItemsResponse) => ({ total: answer.total, included: answer.items.length });

/** Builds the digest report from GET /api/roadmap/items and GET /api/message-center/items (page 1, limit 1000). */
export async function buildDigestReport(days: DigestTimeframe, now: Date = new Date(), origin: string = window.location.origin): Promise<DigestReport> {
  const query = reportQuery(days);
  const [roadmap, messages] = await Promise.all([callEndpoint(routes.items.roadmapItems, { query }), callEndpoint(routes.items.messageItems, { query })]);
  const r = splitNewAndChanged(roadmap.items, days, now, origin);
  const m = splitNewAndChanged(messages.items, days, now, origin);
  return {
    generatedAt: now.toISOString(),
    timeframe: days,
    roadmap: { newItems: r.newItems, changedItems: r.changed, coverage: coverageOf(roadmap) },
    messageCenter: { newItems: m.newItems, updatedItems: m.changed, coverage: coverageOf(messages) },
  };
}

/** An uploaded file's text: parsed as JSON when it is JSON, otherwise used as plain text. */
export function parseUploadedReport(text: string): { kind: 'json'; data: unknown } | { kind: 'text'; data: string } {
  try {
    return { kind: 'json', data: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'text', data: text };
  }
}
