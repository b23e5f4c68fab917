import useSWR, { useSWRConfig } from 'swr';
import {
  CACHE,
  PAGE_SIZE,
  type ChangeHistoryEntry,
  type FilterCountsResponse,
  type FilterOptionsResponse,
  type ItemListParams,
  type ItemListResponse,
  type Source,
  type UnifiedItem,
  UNIFIED_ITEMS_PATH,
  itemListUrl,
} from '@radar/contracts';
import { apiRequest } from '@radar/shared-ui';
import { toQueryString } from '../state/dashboard-filters.js';

/**
 * GET /api/unified/items with the dashboard's query; the list is fresh for 2 minutes (spec 01 §9). `null` waits
 * (a "since my last visit" list waits until the visit is recorded, so it counts from the same moment as the banner).
 */
export function useItemList(params: ItemListParams | null) {
  return useSWR<ItemListResponse>(params ? itemListUrl(params) : null, { dedupingInterval: CACHE.listFreshMs });
}

export function useFilterOptions() {
  return useSWR<FilterOptionsResponse>('/api/roadmap/filter-options');
}

export function useFilterCounts() {
  return useSWR<FilterCountsResponse>('/api/analytics/filter-counts');
}

/** Change history of one item; `null` id skips the call. */
export function useItemHistory(source: Source, id: string | null) {
  const path = source === 'roadmap' ? `/api/roadmap/items/${encodeURIComponent(id ?? '')}/history` : `/api/message-center/items/${encodeURIComponent(id ?? '')}/history`;
  return useSWR<ChangeHistoryEntry[]>(id ? path : null);
}

/** Message Center items linked to a roadmap item, or roadmap items linked to a message. */
export function useLinkedItems(source: Source, id: string | null) {
  const path =
    source === 'roadmap'
      ? `/api/roadmap/items/${encodeURIComponent(id ?? '')}/linked-messages`
      : `/api/message-center/items/${encodeURIComponent(id ?? '')}/linked-roadmap`;
  return useSWR<UnifiedItem[]>(id ? path : null);
}

/** The provider id of a unified item: itemId for roadmap, messageId for messages. */
export const providerIdOf = (item: Pick<UnifiedItem, 'source' | 'itemId' | 'messageId'>): string =>
  (item.source === 'roadmap' ? item.itemId : item.messageId) ?? '';

export type LinkedItemLookup =
  | { status: 'found'; item: UnifiedItem }
  | { status: 'no-exact-match' }
  | { status: 'no-results' };

/**
 * Resolves a deep-linked item (spec 01 §7): GET /api/unified/items?search={id}&sources=…&limit=50, then the first
 * exact match of the provider id. Throws when the request fails.
 */
export async function lookupLinkedItem(source: Source, id: string): Promise<LinkedItemLookup> {
  const query = toQueryString({ search: id, sources: [source], limit: PAGE_SIZE });
  const response = await apiRequest<ItemListResponse>('GET', `${UNIFIED_ITEMS_PATH}?${query}`);
  const items = response?.items ?? [];
  if (items.length === 0) return { status: 'no-results' };
  const wanted = id.trim().toLowerCase();
  const item = items.find((candidate) => candidate.source === source && providerIdOf(candidate).toLowerCase() === wanted);
  return item ? { status: 'found', item } : { status: 'no-exact-match' };
}

/** Key prefixes refreshed after a moderation save: roadmap, message center, unified, featured, moderator activity. */
const MODERATION_REFRESH_PREFIXES = ['/api/roadmap', '/api/message-center', '/api/unified', '/api/featured', '/api/moderator-activity', '/api/dashboard'];

export function isModerationAffectedKey(key: unknown): boolean {
  return typeof key === 'string' && MODERATION_REFRESH_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Revalidates every cached list a moderation save can change. */
export function useRefreshAfterModeration() {
  const { mutate } = useSWRConfig();
  return () => mutate(isModerationAffectedKey);
}
