import useSWR, { useSWRConfig } from 'swr';
import { PAGE_SIZE, itemListUrl, routes, type ItemListParams, type ItemListResponse, type Source, type UnifiedItem } from '@radar/contracts';
import { CACHE, callEndpoint, providerIdOf, useEndpoint } from '@radar/shared-ui';

/**
 * GET /api/unified/items with the dashboard's query; the list is fresh for 2 minutes. `null` waits
 * (a "since my last visit" list waits until the visit is recorded, so it counts from the same moment as the banner).
 */
export function useItemList(params: ItemListParams | null, options: { onSuccess?: () => void } = {}) {
  // Keyed by itemListUrl (not urlOf): the shell's early fetch of the first page asks for this exact URL.
  return useSWR<ItemListResponse>(params ? itemListUrl(params) : null, { dedupingInterval: CACHE.listFreshMs, onSuccess: options.onSuccess });
}

export function useFilterOptions() {
  return useEndpoint(routes.items.filterOptions, {});
}

export function useFilterCounts() {
  return useEndpoint(routes.items.filterCounts, {});
}

/** Change history of one item; `null` id skips the call. */
export function useItemHistory(source: Source, id: string | null) {
  const roadmap = useEndpoint(routes.items.roadmapHistory, source === 'roadmap' && id ? { params: { itemId: id } } : null);
  const messages = useEndpoint(routes.items.messageHistory, source === 'messages' && id ? { params: { messageId: id } } : null);
  return source === 'roadmap' ? roadmap : messages;
}

/** One Message Center post with its sections and the status for the tenant; `null` id skips the call. */
export function useMessageItem(messageId: string | null) {
  return useEndpoint(routes.items.messageItem, messageId ? { params: { messageId } } : null);
}

/** Message Center items linked to a roadmap item, or roadmap items linked to a message. */
export function useLinkedItems(source: Source, id: string | null) {
  const roadmap = useEndpoint(routes.items.roadmapLinkedMessages, source === 'roadmap' && id ? { params: { itemId: id } } : null);
  const messages = useEndpoint(routes.items.messageLinkedRoadmap, source === 'messages' && id ? { params: { messageId: id } } : null);
  return source === 'roadmap' ? roadmap : messages;
}

export { providerIdOf };

/** Service Health issues of a roadmap item's products around its weeks; `null` id skips the call. */
export function useRoadmapRelatedIssues(itemId: string | null) {
  return useEndpoint(routes.items.roadmapRelatedIssues, itemId ? { params: { itemId } } : null);
}

/** One Service Health issue with its posts, status timeline, report, tenants and related items; `null` id skips the call. */
export function useHealthIssue(issueId: string | null) {
  return useEndpoint(routes.serviceHealth.issue, issueId ? { params: { issueId } } : null);
}

/** A Service Health issue's change history; `null` id skips the call. */
export function useHealthHistory(issueId: string | null) {
  return useEndpoint(routes.serviceHealth.history, issueId ? { params: { issueId } } : null);
}

export type LinkedItemLookup = { status: 'found'; item: UnifiedItem } | { status: 'no-exact-match' } | { status: 'no-results' };

/**
 * Resolves a deep-linked item: GET /api/unified/items?search={id}&sources=…&limit=50, then the first
 * exact match of the provider id. Throws when the request fails.
 */
export async function lookupLinkedItem(source: Source, id: string): Promise<LinkedItemLookup> {
  const { items } = await callEndpoint(routes.items.list, { query: { search: id, sources: [source], limit: PAGE_SIZE } });
  if (items.length === 0) return { status: 'no-results' };
  const wanted = id.trim().toLowerCase();
  const item = items.find((candidate) => candidate.source === source && providerIdOf(candidate).toLowerCase() === wanted);
  return item ? { status: 'found', item } : { status: 'no-exact-match' };
}

/**
 * What a moderation save can change (roadmap, message center, unified and featured lists, moderator
 * activity): every item read of the table (lists, featured, stats, per-item history and links) and the admin's
 * activity lists, as URL prefixes (the path up to its first parameter).
 */
const MODERATION_AFFECTED_PREFIXES = [...Object.values(routes.items), routes.admin.moderatorActivities, routes.admin.moderatorActivityStats]
  .filter((endpoint) => endpoint.method === 'GET')
  .map((endpoint) => endpoint.path.split('/:')[0]);

export function isModerationAffectedKey(key: unknown): boolean {
  return typeof key === 'string' && MODERATION_AFFECTED_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Revalidates every cached list a moderation save can change. */
export function useRefreshAfterModeration() {
  const { mutate } = useSWRConfig();
  return () => mutate(isModerationAffectedKey);
}
