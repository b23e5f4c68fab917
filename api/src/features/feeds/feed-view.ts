import { CHANGE_TYPE_DAYS, RELEVANCE_LEVEL_LABELS, SOURCE_LABELS, toQueryString, type ItemListQuery } from '@radar/contracts';
import type { ItemWhereFilters } from '../items/item-query.js';

/**
 * The filters of a feed request: the list query without what a feed ignores (page, limit and sort: a feed is always
 * the newest items by last activity), keys sorted, so equal views share one cache entry and one canonical URL.
 */
export function feedFilters(query: ItemListQuery): ItemWhereFilters {
  const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, ...filters } = query;
  const entries = Object.entries(filters).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  // A feed has no visit of its own (`visitSince` is resolved per signed-in caller), so it is never among them.
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))) as Omit<ItemWhereFilters, 'visitSince'>;
}

/** The canonical query string of a view (no leading `?`; '' for the whole list). */
export function canonicalQuery(filters: ItemWhereFilters): string {
  return toQueryString(filters as Record<string, unknown>);
}

const TIMELINE_LABELS: Record<string, string> = {
  '1_day': 'active in the last day',
  '7days': 'active in the last 7 days',
  '30days': 'active in the last 30 days',
  '90days': 'active in the last 90 days',
};
const MAX_VIEW_CHARS = 120;

/** A short human name of a view for feed and calendar titles ("Roadmap · Microsoft Teams · “copilot”"). */
export function describeView(filters: ItemWhereFilters): string {
  const parts: string[] = [];
  const [onlySource] = filters.sources ?? [];
  if (filters.sources?.length === 1 && onlySource) parts.push(SOURCE_LABELS[onlySource] ?? onlySource);
  if (filters.search) parts.push(`“${filters.search}”`);
  for (const list of [filters.products, filters.statuses, filters.roadmapStatuses, filters.messageCenterTags, filters.cloudInstances]) {
    if (list?.length) parts.push(list.join(', '));
  }
  if (filters.timeline && filters.timeline !== 'all') parts.push(TIMELINE_LABELS[filters.timeline] ?? filters.timeline);
  if (filters.changeTypes?.length) {
    const label = (c: keyof typeof CHANGE_TYPE_DAYS) =>
      `${c.startsWith('new') ? 'new' : 'changed'} in ${CHANGE_TYPE_DAYS[c] === 1 ? 'the last day' : `the last ${CHANGE_TYPE_DAYS[c]} days`}`;
    parts.push(filters.changeTypes.map(label).join(' or '));
  }
  if (filters.healthStatus) parts.push(filters.healthStatus === 'active' ? 'open issues' : 'resolved issues');
  if (filters.healthClassifications?.length) parts.push(filters.healthClassifications.map((c) => `${c}s`).join(', '));
  if (filters.featured || filters.moderatorFeatured) parts.push('featured');
  if (filters.relevance?.length) parts.push(`${filters.relevance.map((level) => RELEVANCE_LEVEL_LABELS[level]).join(' or ')} relevance`);
  const view = parts.join(' · ');
  return view.length > MAX_VIEW_CHARS ? `${view.slice(0, MAX_VIEW_CHARS - 1)}…` : view;
}
