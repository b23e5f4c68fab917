import { PAGE_SIZE } from './constants.js';
import type { ItemListParams } from './items.js';

/** The unified list (GET). */
export const UNIFIED_ITEMS_PATH = '/api/unified/items';

/**
 * The dashboard's view kept in its page URL, under the list query's names: search, filters, sort and page (each only
 * when it differs from the default view). Without any of them the dashboard opens on DEFAULT_LIST_PARAMS.
 */
export const DASHBOARD_URL_STATE_KEYS = [
  'search',
  'sources',
  'products',
  'statuses',
  'changeTypes',
  'timeline',
  'roadmapStatuses',
  'messageCenterTags',
  'cloudInstances',
  'productFamilies',
  'tenants',
  'healthStatus',
  'healthClassifications',
  'featured',
  'moderatorFeatured',
  'includeRemoved',
  'licensed',
  'releaseMoved',
  'rollingOut',
  'sinceLastVisit',
  'triage',
  'relevance',
  'sortField',
  'sortDirection',
  'page',
] as const;

/** What the dashboard lists when it opens: newest first, page 1. */
export const DEFAULT_LIST_PARAMS = { sortField: 'createdDate', sortDirection: 'desc', page: 1, limit: PAGE_SIZE } as const satisfies ItemListParams;

/**
 * Query string of ItemListParams in key order, lists as repeated keys (`products=a&products=b`, so commas in names
 * survive), empty values left out. The dashboard's list requests and the shell's early fetch of the first page use
 * it, so both ask for byte-identical URLs.
 */
export function itemListQueryString(params: ItemListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else search.append(key, String(value));
  }
  return search.toString();
}

export const itemListUrl = (params: ItemListParams): string => `${UNIFIED_ITEMS_PATH}?${itemListQueryString(params)}`;
