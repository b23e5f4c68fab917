import {
  CHANGE_TYPE_OPTIONS,
  DASHBOARD_URL_STATE_KEYS,
  HEALTH_CLASSIFICATIONS,
  HEALTH_STATES,
  LIST_SORT_FIELDS,
  LIST_TIMELINES,
  PAGE_SIZE,
  PRODUCT_FAMILIES,
  RELEASE_MOVED_WINDOWS,
  ROLLING_OUT_WINDOWS,
  SOURCES,
  TRIAGE_VIEWS,
  type ChangeTypeOption,
  type HealthClassification,
  type HealthState,
  type ItemListParams,
  type ProductFamily,
  type ReleaseMovedWindow,
  type RollingOutWindow,
  type Source,
  type TriageView,
} from '@radar/contracts';
import { BOTH_SOURCES, initialDashboardState, initialFilters, type DashboardState, type SortField } from './dashboard-filters.js';
import { isRelevanceLevel } from './relevance-levels.js';

// The dashboard's view written as a query: the list's and the export's parameters, the page URL, and the query a
// saved search keeps. The filters and their reducer are in dashboard-filters.ts.

/** The list/export query of the current state (ItemListParams), without empty values. */
export function toListParams(state: DashboardState, { paged = true } = {}): ItemListParams {
  const { filters } = state;
  const params: ItemListParams = { sortField: state.sortField, sortDirection: state.sortDirection };
  if (paged) {
    params.page = state.page;
    params.limit = PAGE_SIZE;
  }
  if (state.search.trim()) params.search = state.search.trim();
  if (filters.sources.length > 0 && filters.sources.length < SOURCES.length) params.sources = filters.sources;
  if (filters.products.length) params.products = filters.products;
  if (filters.status.length) params.statuses = filters.status;
  if (filters.timeline && filters.timeline !== 'all') params.timeline = filters.timeline as ItemListParams['timeline'];
  if (filters.changeTypes.length) params.changeTypes = filters.changeTypes;
  if (filters.roadmapStatuses.length) params.roadmapStatuses = filters.roadmapStatuses;
  if (filters.messageCenterTags.length) params.messageCenterTags = filters.messageCenterTags;
  if (filters.cloudInstances.length) params.cloudInstances = filters.cloudInstances;
  if (filters.moderatorFeatured) params.moderatorFeatured = true;
  if (filters.featured) params.featured = true;
  if (filters.includeRemoved) params.includeRemoved = true;
  if (filters.licensed) params.licensed = true;
  if (filters.relevance.length) params.relevance = filters.relevance;
  if (filters.releaseMoved) params.releaseMoved = filters.releaseMoved;
  if (filters.rollingOut) params.rollingOut = filters.rollingOut;
  if (filters.productFamilies.length) params.productFamilies = filters.productFamilies;
  if (filters.tenants.length) params.tenants = filters.tenants;
  if (filters.healthStatus) params.healthStatus = filters.healthStatus;
  if (filters.healthClassifications.length) params.healthClassifications = filters.healthClassifications;
  if (filters.sinceLastVisit) params.sinceLastVisit = true;
  if (filters.triage) params.triage = filters.triage;
  return params;
}

/**
 * The whole view lives in the page URL, under the list query's own names (search, sources, products, statuses,
 * changeTypes, timeline, roadmapStatuses, messageCenterTags, cloudInstances, productFamilies, tenants, healthStatus,
 * healthClassifications, featured,
 * moderatorFeatured, includeRemoved, licensed, relevance, releaseMoved, rollingOut, sinceLastVisit, triage, sortField, sortDirection, page), each
 * only when it differs from the default view. So a reload, a bookmark, a shared link and Back / Forward all restore
 * filters, search, sort and page. Other query parameters (the open item: ?roadmap= / ?message= / ?health=, ?savedSearch=) are
 * left alone.
 */
export const URL_STATE_KEYS: readonly string[] = DASHBOARD_URL_STATE_KEYS;

const LIST_KEYS = [
  'sources',
  'products',
  'statuses',
  'changeTypes',
  'roadmapStatuses',
  'messageCenterTags',
  'cloudInstances',
  'productFamilies',
  'tenants',
  'healthClassifications',
  'relevance',
] as const;

/** The view a URL describes (its unknown or malformed values ignored), on top of `base` for what it does not say. */
export function stateFromUrl(search: URLSearchParams, base: DashboardState = initialDashboardState): DashboardState {
  if (!URL_STATE_KEYS.some((key) => search.has(key))) return base;
  const flag = (key: string) => search.get(key) === 'true';
  const query: ViewQuery = {
    search: search.get('search') ?? undefined,
    timeline: search.get('timeline') ?? undefined,
    featured: flag('featured'),
    moderatorFeatured: flag('moderatorFeatured'),
    includeRemoved: flag('includeRemoved'),
    licensed: flag('licensed'),
    releaseMoved: search.get('releaseMoved') ?? undefined,
    rollingOut: search.get('rollingOut') ?? undefined,
    healthStatus: search.get('healthStatus') ?? undefined,
    sortField: search.get('sortField') ?? undefined,
    sortDirection: search.get('sortDirection') ?? undefined,
  };
  for (const key of LIST_KEYS) {
    const values = search.getAll(key).filter(Boolean);
    if (values.length) query[key] = values;
  }
  // A hand-edited or stale link must not break the list: values the list query does not know are dropped.
  query.changeTypes = query.changeTypes?.filter((c) => (CHANGE_TYPE_OPTIONS as readonly string[]).includes(c));
  if (query.timeline && !(LIST_TIMELINES as readonly string[]).includes(query.timeline)) query.timeline = undefined;
  const view = stateFromQuery(query);
  // The timing sort reads soonest first unless the URL says otherwise; every other sort newest first.
  if (view.sortField === 'timing' && search.get('sortDirection') !== 'desc') view.sortDirection = 'asc';
  const page = Number(search.get('page'));
  const triage = search.get('triage') ?? '';
  return {
    ...view,
    page: Number.isInteger(page) && page > 1 ? page : 1,
    filters: {
      ...view.filters,
      sinceLastVisit: flag('sinceLastVisit'),
      triage: (TRIAGE_VIEWS as readonly string[]).includes(triage) ? (triage as TriageView) : undefined,
    },
  };
}

/** `search` with the view of `state` written in (only what differs from the default view), everything else unchanged. */
export function withUrlState(search: URLSearchParams, state: DashboardState): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of URL_STATE_KEYS) next.delete(key);
  const { limit: _limit, ...params } = toListParams(state);
  const defaults = initialDashboardState;
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === false) continue;
    if (key === 'page' && value === 1) continue;
    if (key === 'sortField' && value === defaults.sortField && state.sortDirection === defaults.sortDirection) continue;
    if (key === 'sortDirection' && state.sortField === defaults.sortField && value === defaults.sortDirection) continue;
    if (Array.isArray(value)) for (const item of value) next.append(key, String(item));
    else next.set(key, String(value));
  }
  return next;
}

/** A list query as a saved search keeps it (the list's query without paging); lists may be absent. */
export type ViewQuery = Partial<
  Record<
    | 'products'
    | 'statuses'
    | 'sources'
    | 'changeTypes'
    | 'roadmapStatuses'
    | 'messageCenterTags'
    | 'cloudInstances'
    | 'productFamilies'
    | 'healthClassifications'
    | 'relevance',
    string[]
  >
> & {
  /** Tenant ids (a saved search keeps them as numbers, a URL as text). */
  tenants?: (string | number)[];
  search?: string;
  timeline?: string;
  featured?: boolean;
  moderatorFeatured?: boolean;
  includeRemoved?: boolean;
  licensed?: boolean;
  releaseMoved?: string;
  rollingOut?: string;
  healthStatus?: string;
  sortField?: string;
  sortDirection?: string;
};

/** The dashboard state that shows a saved search's view (the inverse of toListParams). */
export function stateFromQuery(q: ViewQuery): DashboardState {
  const sources = (q.sources ?? []).filter((s): s is Source => (SOURCES as readonly string[]).includes(s));
  return {
    ...initialDashboardState,
    search: q.search ?? '',
    sortField: ((LIST_SORT_FIELDS as readonly string[]).includes(q.sortField ?? '') ? q.sortField : 'createdDate') as SortField,
    sortDirection: q.sortDirection === 'asc' ? 'asc' : 'desc',
    filters: {
      ...initialFilters,
      sources: sources.length ? sources : BOTH_SOURCES,
      products: q.products ?? [],
      status: q.statuses ?? [],
      timeline: q.timeline,
      changeTypes: (q.changeTypes ?? []) as ChangeTypeOption[],
      roadmapStatuses: q.roadmapStatuses ?? [],
      messageCenterTags: q.messageCenterTags ?? [],
      cloudInstances: q.cloudInstances ?? [],
      featured: q.featured ?? false,
      moderatorFeatured: q.moderatorFeatured ?? false,
      includeRemoved: q.includeRemoved ?? false,
      licensed: q.licensed ?? false,
      releaseMoved: (RELEASE_MOVED_WINDOWS as readonly string[]).includes(q.releaseMoved ?? '') ? (q.releaseMoved as ReleaseMovedWindow) : undefined,
      rollingOut: (ROLLING_OUT_WINDOWS as readonly string[]).includes(q.rollingOut ?? '') ? (q.rollingOut as RollingOutWindow) : undefined,
      productFamilies: (q.productFamilies ?? []).filter((f): f is ProductFamily => (PRODUCT_FAMILIES as readonly string[]).includes(f)),
      tenants: (q.tenants ?? []).map(String).filter((id) => /^[1-9]\d{0,8}$/.test(id)),
      // `relevance=high,medium` (the api's own form) reads as well as repeated keys.
      relevance: [...new Set((q.relevance ?? []).flatMap((v) => v.split(',')).filter(isRelevanceLevel))],
      healthStatus: (HEALTH_STATES as readonly string[]).includes(q.healthStatus ?? '') ? (q.healthStatus as HealthState) : undefined,
      healthClassifications: (q.healthClassifications ?? []).filter((c): c is HealthClassification =>
        (HEALTH_CLASSIFICATIONS as readonly string[]).includes(c),
      ),
    },
  };
}

/**
 * The query a saved search keeps of the current view: the list's query without paging, "since my last visit" and the
 * triage view (a saved search is shared filters; the queue view is chosen beside it), ordered by date instead of by
 * due date.
 */
export function savedSearchQueryOf(state: DashboardState): ItemListParams {
  const { page: _page, limit: _limit, sinceLastVisit: _since, triage: _triage, ...query } = toListParams(state, { paged: false });
  return query.sortField === 'due' ? { ...query, sortField: 'createdDate', sortDirection: 'desc' } : query;
}
