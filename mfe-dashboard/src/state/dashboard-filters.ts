import {
  CHANGED_CHANGE_TYPES,
  DEFAULT_LIST_PARAMS,
  NEW_CHANGE_TYPES,
  SOURCES,
  type ChangeTypeOption,
  type HealthClassification,
  type HealthState,
  type ListSortField,
  type ProductFamily,
  type RelevanceLevel,
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
  /** Signed-in users: items whose relevance to one of the tenants (their usage of what the item touches) is one of these. */
  relevance: RelevanceLevel[];
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
  relevance: [],
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
  | { type: 'toggleRelevance'; level: RelevanceLevel }
  /** A guest's view loses what only signed-in users have: since my last visit, the relevance filter and sort. */
  | { type: 'dropSignedInOnly' }
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
    filters.relevance.length > 0 ||
    filters.healthStatus !== undefined ||
    filters.healthClassifications.length > 0
  );
}

/**
 * Clear All: resets products, status, changeTypes, timeline (and the source-deciding selections, the other Recent
 * Activity choices: since my last visit, release date moved, and the timing, product family, tenant and relevance
 * filters); sources both. Include removed and expired stays: it says which items exist, like the sort says their order.
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
    relevance: [],
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
    case 'toggleRelevance':
      return { ...filters, relevance: toggle(filters.relevance, action.level) };
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
    case 'dropSignedInOnly': {
      const sort = state.sortField === 'relevance' ? { sortField: initialDashboardState.sortField, sortDirection: initialDashboardState.sortDirection } : {};
      return { ...state, ...sort, filters: { ...state.filters, sinceLastVisit: false, relevance: [] }, page: 1 };
    }
    case 'toggleTimingSort':
      return { ...state, sortField: 'timing', sortDirection: state.sortField === 'timing' && state.sortDirection === 'asc' ? 'desc' : 'asc', page: 1 };
    default:
      return { ...state, filters: reduceFilters(state.filters, action), page: 1 };
  }
}
