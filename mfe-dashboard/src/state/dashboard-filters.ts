import {
  CHANGED_CHANGE_TYPES,
  CHANGE_TYPE_OPTIONS,
  DASHBOARD_URL_STATE_KEYS,
  HEALTH_CLASSIFICATIONS,
  HEALTH_STATES,
  DEFAULT_LIST_PARAMS,
  NEW_CHANGE_TYPES,
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
  type ListSortField,
  type ProductFamily,
  type ReleaseMovedWindow,
  type RollingOutWindow,
  type Source,
  type TriageView,
} from '@radar/contracts';

export type SortField = ListSortField;
export type SortDirection = 'asc' | 'desc';

/** The dashboard's filters (docs/product/dashboard.md). */
export interface DashboardFilters {
  sources: Source[];
  products: string[];
  status: string[];
  /** Optional; unset or 'all' means no timeline. */
  timeline?: string;
  changeTypes: ChangeTypeOption[];
  roadmapStatuses: string[];
  messageCenterTags: string[];
  cloudInstances: string[];
  moderatorFeatured: boolean;
  featured: boolean;
  /** Data Source: also list removed roadmap items and expired Message Center posts. */
  includeRemoved: boolean;
  /** Data Source: only items of products the tenants license (unknown products are kept). */
  licensed: boolean;
  /** Recent Activity: new or changed since the signed-in user's previous visit. */
  sinceLastVisit: boolean;
  /** Recent Activity: a roadmap GA or preview date, or a post's rollout timing, moved within the window. */
  releaseMoved?: ReleaseMovedWindow;
  /** Timing of Change: rolling out now or starting within the next N days. */
  rollingOut?: RollingOutWindow;
  /** Product Family: items with a product in any of these families. */
  productFamilies: ProductFamily[];
  /** Tenant: Message Center posts and Service Health issues any of these tenants (ids) received. */
  tenants: string[];
  /** Service Health: open or resolved issues only. */
  healthStatus?: HealthState;
  /** Service Health: incidents, advisories. */
  healthClassifications: HealthClassification[];
  /**
   * Signed-in users: a triage queue view (My queue, Unassigned, Overdue, Due in 30 days, Done) beside the filters;
   * Clear All keeps it, as a view says which queue is being worked, not what is filtered.
   */
  triage?: TriageView;
}

/** Everything the list query depends on. */
export interface DashboardState {
  filters: DashboardFilters;
  search: string;
  sortField: SortField;
  sortDirection: SortDirection;
  page: number;
}

export const BOTH_SOURCES: Source[] = [...SOURCES];

export const initialFilters: DashboardFilters = {
  sources: BOTH_SOURCES,
  products: [],
  status: [],
  timeline: undefined,
  changeTypes: [],
  roadmapStatuses: [],
  messageCenterTags: [],
  cloudInstances: [],
  moderatorFeatured: false,
  featured: false,
  includeRemoved: false,
  licensed: false,
  sinceLastVisit: false,
  releaseMoved: undefined,
  rollingOut: undefined,
  productFamilies: [],
  tenants: [],
  healthStatus: undefined,
  healthClassifications: [],
  triage: undefined,
};

/** Default sort: createdDate descending. */
export const initialDashboardState: DashboardState = {
  filters: initialFilters,
  search: '',
  sortField: DEFAULT_LIST_PARAMS.sortField,
  sortDirection: DEFAULT_LIST_PARAMS.sortDirection,
  page: DEFAULT_LIST_PARAMS.page,
};

export type ListFilterKey =
  'products' | 'status' | 'roadmapStatuses' | 'messageCenterTags' | 'cloudInstances' | 'productFamilies' | 'tenants' | 'healthClassifications';

export type DashboardAction =
  | { type: 'toggleSource'; source: Source }
  | { type: 'toggleListValue'; key: ListFilterKey; value: string }
  | { type: 'toggleChangeType'; changeType: ChangeTypeOption }
  | { type: 'setFeatured'; featured: boolean }
  | { type: 'setTimeline'; timeline: string | undefined }
  | { type: 'setIncludeRemoved'; includeRemoved: boolean }
  | { type: 'setLicensed'; licensed: boolean }
  | { type: 'setSinceLastVisit'; sinceLastVisit: boolean }
  | { type: 'toggleReleaseMoved'; window: ReleaseMovedWindow }
  | { type: 'toggleRollingOut'; window: RollingOutWindow }
  | { type: 'toggleHealthStatus'; healthStatus: HealthState }
  | { type: 'setTriageView'; triage: TriageView | undefined }
  | { type: 'clearAll' }
  | { type: 'setSearch'; search: string }
  | { type: 'setSort'; sortField: SortField; sortDirection: SortDirection }
  | { type: 'toggleLastModifiedSort' }
  | { type: 'toggleTimingSort' }
  | { type: 'setPage'; page: number }
  /** Replaces the whole view (opening a saved search). */
  | { type: 'loadView'; state: DashboardState };

const toggle = <T>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

/**
 * Source-specific selections decide the sources: roadmap statuses and cloud instances the roadmap, message tags
 * Message Center, the Service Health status and classifications Service Health. The sources with a selection are
 * listed; with none (or all of them) every source is.
 */
export function recomputeSources(
  filters: Pick<DashboardFilters, 'roadmapStatuses' | 'messageCenterTags' | 'cloudInstances' | 'healthStatus' | 'healthClassifications'>,
): Source[] {
  const chosen: Record<Source, boolean> = {
    roadmap: filters.roadmapStatuses.length > 0 || filters.cloudInstances.length > 0,
    messages: filters.messageCenterTags.length > 0,
    health: filters.healthStatus !== undefined || filters.healthClassifications.length > 0,
  };
  const sources = SOURCES.filter((s) => chosen[s]);
  return sources.length === 0 || sources.length === SOURCES.length ? BOTH_SOURCES : sources;
}

/** Choosing a new_* option replaces any other new_*; likewise changed_*; choosing the selected one clears it. */
export function toggleChangeType(current: readonly ChangeTypeOption[], choice: ChangeTypeOption): ChangeTypeOption[] {
  if (current.includes(choice)) return current.filter((c) => c !== choice);
  const group: readonly string[] = (NEW_CHANGE_TYPES as readonly string[]).includes(choice) ? NEW_CHANGE_TYPES : CHANGED_CHANGE_TYPES;
  return [...current.filter((c) => !group.includes(c)), choice];
}

/**
 * Clear All shows when products, status, changeTypes or a timeline other than 'all' is set. The
 * roadmap-status, tag and cloud-instance selections count too: Clear All sets sources to both, which is only
 * consistent with the sources rule when those are cleared as well.
 */
export function canClearAll(filters: DashboardFilters): boolean {
  return (
    filters.products.length > 0 ||
    filters.status.length > 0 ||
    filters.changeTypes.length > 0 ||
    (filters.timeline !== undefined && filters.timeline !== 'all') ||
    filters.roadmapStatuses.length > 0 ||
    filters.messageCenterTags.length > 0 ||
    filters.cloudInstances.length > 0 ||
    filters.sinceLastVisit ||
    filters.releaseMoved !== undefined ||
    filters.rollingOut !== undefined ||
    filters.productFamilies.length > 0 ||
    filters.tenants.length > 0 ||
    filters.healthStatus !== undefined ||
    filters.healthClassifications.length > 0
  );
}

/**
 * Clear All: resets products, status, changeTypes, timeline (and the source-deciding selections, the other Recent
 * Activity choices: since my last visit, release date moved, and the timing and product family filters); sources
 * both. Include removed and expired stays: it says which items exist, like the sort says their order.
 */
export function clearAll(filters: DashboardFilters): DashboardFilters {
  return {
    ...filters,
    products: [],
    status: [],
    changeTypes: [],
    timeline: undefined,
    roadmapStatuses: [],
    messageCenterTags: [],
    cloudInstances: [],
    sinceLastVisit: false,
    releaseMoved: undefined,
    rollingOut: undefined,
    productFamilies: [],
    tenants: [],
    healthStatus: undefined,
    healthClassifications: [],
    sources: BOTH_SOURCES,
  };
}

function reduceFilters(filters: DashboardFilters, action: DashboardAction): DashboardFilters {
  switch (action.type) {
    case 'toggleSource':
      return { ...filters, sources: SOURCES.filter((s) => (s === action.source ? !filters.sources.includes(s) : filters.sources.includes(s))) };
    case 'toggleListValue': {
      const next = { ...filters, [action.key]: toggle(filters[action.key], action.value) };
      const decidesSources =
        action.key === 'roadmapStatuses' || action.key === 'messageCenterTags' || action.key === 'cloudInstances' || action.key === 'healthClassifications';
      return decidesSources ? { ...next, sources: recomputeSources(next) } : next;
    }
    case 'toggleChangeType':
      return { ...filters, changeTypes: toggleChangeType(filters.changeTypes, action.changeType) };
    case 'setFeatured':
      return { ...filters, featured: action.featured };
    case 'setTimeline':
      return { ...filters, timeline: action.timeline };
    case 'setIncludeRemoved':
      return { ...filters, includeRemoved: action.includeRemoved };
    case 'setLicensed':
      return { ...filters, licensed: action.licensed };
    case 'setSinceLastVisit':
      return { ...filters, sinceLastVisit: action.sinceLastVisit };
    case 'toggleReleaseMoved':
      return { ...filters, releaseMoved: filters.releaseMoved === action.window ? undefined : action.window };
    case 'toggleRollingOut':
      return { ...filters, rollingOut: filters.rollingOut === action.window ? undefined : action.window };
    case 'toggleHealthStatus': {
      const next = { ...filters, healthStatus: filters.healthStatus === action.healthStatus ? undefined : action.healthStatus };
      return { ...next, sources: recomputeSources(next) };
    }
    case 'setTriageView':
      return { ...filters, triage: action.triage };
    case 'clearAll':
      return clearAll(filters);
    default:
      return filters;
  }
}

/** Pure reducer of the dashboard; any filter, search or sort change resets the page to 1. */
export function dashboardReducer(state: DashboardState, action: DashboardAction): DashboardState {
  switch (action.type) {
    case 'loadView':
      return action.state;
    case 'setPage':
      return { ...state, page: Math.max(1, action.page) };
    case 'setSearch':
      return action.search === state.search ? state : { ...state, search: action.search, page: 1 };
    case 'setSort':
      return { ...state, sortField: action.sortField, sortDirection: action.sortDirection, page: 1 };
    case 'toggleLastModifiedSort':
      return {
        ...state,
        sortField: 'modifiedDate',
        sortDirection: state.sortField === 'modifiedDate' && state.sortDirection === 'desc' ? 'asc' : 'desc',
        page: 1,
      };
    case 'toggleTimingSort':
      return { ...state, sortField: 'timing', sortDirection: state.sortField === 'timing' && state.sortDirection === 'asc' ? 'desc' : 'asc', page: 1 };
    default:
      return { ...state, filters: reduceFilters(state.filters, action), page: 1 };
  }
}

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
 * moderatorFeatured, includeRemoved, licensed, releaseMoved, rollingOut, sinceLastVisit, triage, sortField, sortDirection, page), each
 * only when it differs from the default view. So a reload, a bookmark, a shared link and Back / Forward all restore
 * filters, search, sort and page. Other query parameters (the open item: ?roadmap= / ?message= / ?health=, ?savedSearch=) are
 * left alone.
 */
export const URL_STATE_KEYS = DASHBOARD_URL_STATE_KEYS;

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
    | 'healthClassifications',
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
