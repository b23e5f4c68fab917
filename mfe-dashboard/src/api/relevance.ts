import useSWR from 'swr';
import { endpointUrl, type ItemRelevanceResponse, type TriageItemParams, type UnifiedItem } from '@radar/contracts';
import { providerIdOf } from '@radar/shared-ui';
import { triageTypeOf } from './triage.js';

/**
 * GET /api/relevance/{itemType}/{itemId} (contracts' relevanceEndpoints.item). Called by its path and typed by its
 * answer until the endpoint table carries it (then: `useEndpoint(routes.relevance.item, …)`).
 */
const ITEM_RELEVANCE = { path: '/api/relevance/:itemType/:itemId' } as const;

/** The item named as triage names it (roadmap number, MC id). */
export const relevanceParamsOf = (item: UnifiedItem): TriageItemParams => ({ itemType: triageTypeOf(item), itemId: providerIdOf(item) });

/** Each tenant's relevance of the item, most relevant first; `null` skips the call (guests). */
export function useItemRelevance(item: UnifiedItem | null) {
  return useSWR<ItemRelevanceResponse>(item ? endpointUrl(ITEM_RELEVANCE, { params: relevanceParamsOf(item) }) : null);
}
