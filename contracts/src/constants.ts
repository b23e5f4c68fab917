/** The product's numbers and names (docs/product/limits.md). Both the api and the apps read them from here. */

export const PRODUCT_NAME = 'M365 Radar';

/** The global the api's `<script>` sets to the runtime configuration (schema `runtimeConfig`). */
export const RUNTIME_CONFIG_GLOBAL = '__RADAR_CONFIG__';

/**
 * A first screen rendered on the server (api/src/http/server-render.ts → shell/src/bootstrap.tsx): the attribute on
 * #root while it holds the server's markup (removed, with `inert`, once hydrated) and the id of the
 * <script type="application/json"> with the data the render used (URL → answer).
 */
export const SERVER_RENDER = { rootAttribute: 'data-server-rendered', dataElementId: 'radar-server-data' } as const;
/** localStorage key of the reader's theme choice (light, dark or system; product-specific, ending in ui-theme). */
export const THEME_STORAGE_KEY = 'radar-ui-theme';
/**
 * Run in the page's <head> before the first paint (allowed by its hash in the Content-Security-Policy): the reader's
 * theme choice (system when none is stored) as the `light`/`dark` class and color-scheme of <html>, which choose the
 * values of the theme's CSS variables. The theme provider sets the same afterwards.
 */
export const DARK_FIRST_PAINT_SCRIPT = `(function(){try{var p=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});var d=p==='dark'||(p!=='light'&&window.matchMedia('(prefers-color-scheme: dark)').matches);var r=document.documentElement;r.classList.remove('light','dark');r.classList.add(d?'dark':'light');r.style.colorScheme=d?'dark':'light'}catch(e){}})()`;
/** Used in the export file name: `<suite>-dashboard-YYYY-MM-DD.csv`. */
export const SUITE_SLUG = 'microsoft-365';

export const PAGE_SIZE = 50;
/**
 * Rows of a list page drawn in the first commit (the dashboard's table); the rest follow right after it. A page the
 * server renders carries only these rows in its page data: the browser's own request for the page brings the rest.
 */
export const FIRST_SCREEN_ROWS = 15;
/** Upper bound for `limit` on list endpoints; the digest report asks for 1000. */
export const MAX_PAGE_SIZE = 1000;
export const FEATURED_LIMIT = 6;
export const NEW_WINDOW_DAYS = 7;
/** An Updated message needs at least this much between publication and last update. */
export const UPDATED_MESSAGE_MIN_GAP_MS = 60 * 60 * 1000;
export const VERIFICATION_CODE_LENGTH = 6;
/** A recovery code printed by `npm run admin:recover`: base32 letters and digits carrying 128 random bits. */
export const RECOVERY_CODE_LENGTH = 26;
/** A recovery code as typed (any case, spaces or dashes between groups) in the form it is checked in. */
export const normalizeRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();
/** Whether the text is a recovery code's form (not whether it is right). */
export const isRecoveryCodeForm = (code: string): boolean => new RegExp(`^[A-Z2-7]{${RECOVERY_CODE_LENGTH}}$`).test(normalizeRecoveryCode(code));
export const PREVIEW_CHARS = 200;
export const CHANGE_VALUE_PREVIEW_CHARS = 300;
export const ACTIVITY_PAGE_SIZE = 20;
export const ANALYTICS_TOP_PRODUCTS = 12;
export const DIGEST_REPORT_LIMIT = 1000;

/** The sources a sync reads (Sync History's `syncSource`), and how people read their names. */
export const SYNC_SOURCES = ['roadmap', 'message_center', 'service_health'] as const;
export const SYNC_SOURCE_LABELS: Record<(typeof SYNC_SOURCES)[number], string> = {
  roadmap: 'Roadmap',
  message_center: 'Message Center',
  service_health: 'Service Health',
};

/** The unified list's sources: the roadmap, Message Center posts and Service Health issues. */
export const SOURCES = ['roadmap', 'messages', 'health'] as const;
export type Source = (typeof SOURCES)[number];
/** How each source is named in the list, mails, feeds and exports. */
export const SOURCE_LABELS: Record<Source, string> = { roadmap: 'Roadmap', messages: 'Message Center', health: 'Service Health' };
/** One item of each source, in a sentence ("New roadmap item"). */
export const SOURCE_ITEM_NOUNS: Record<Source, string> = { roadmap: 'roadmap item', messages: 'Message Center post', health: 'Service Health issue' };
/**
 * The dashboard's query parameter that opens an item's dialog (`/dashboard?message=MC123`), which is also the share
 * link's first path segment (`/message/MC123`).
 */
export const SOURCE_LINK_PARAMS = { roadmap: 'roadmap', messages: 'message', health: 'health' } as const satisfies Record<Source, string>;

/** Graph's `classification` of a Service Health issue. */
export const HEALTH_CLASSIFICATIONS = ['incident', 'advisory'] as const;
export type HealthClassification = (typeof HEALTH_CLASSIFICATIONS)[number];
export const HEALTH_CLASSIFICATION_LABELS: Record<HealthClassification, string> = { incident: 'Incident', advisory: 'Advisory' };
/** The list's Service Health status filter: issues still open, or resolved (Graph `isResolved`). */
export const HEALTH_STATES = ['active', 'resolved'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export const ITEM_TYPES = ['roadmap', 'message_center'] as const;
/** The item types of the activity log: curation is of roadmap items and posts; triage of Service Health issues too. */
export const ACTIVITY_ITEM_TYPES = [...ITEM_TYPES, 'service_health'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const NEW_CHANGE_TYPES = ['new_1_day', 'new_7days', 'new_30days'] as const;
export const CHANGED_CHANGE_TYPES = ['changed_1_day', 'changed_7days', 'changed_30days'] as const;
export const CHANGE_TYPE_OPTIONS = [...NEW_CHANGE_TYPES, ...CHANGED_CHANGE_TYPES] as const;
/** The list's `timeline` choices ('all' is no timeline). */
export const LIST_TIMELINES = ['all', '1_day', '7days', '30days', '90days'] as const;
export type ChangeTypeOption = (typeof CHANGE_TYPE_OPTIONS)[number];
/** Days covered by each change-type option. */
export const CHANGE_TYPE_DAYS: Record<ChangeTypeOption, number> = {
  new_1_day: 1,
  new_7days: 7,
  new_30days: 30,
  changed_1_day: 1,
  changed_7days: 7,
  changed_30days: 30,
};

/**
 * Sort keys of the unified list. `timing`: when the change reaches tenants (a post's earliest rollout window, a
 * roadmap item's GA month), items without one last in either direction. `due` (signed-in users): the nearest due date
 * of the item's open triage records, items without one last.
 */
export const LIST_SORT_FIELDS = ['createdDate', 'modifiedDate', 'releaseMoves', 'timing', 'due', 'relevance'] as const;
export type ListSortField = (typeof LIST_SORT_FIELDS)[number];

/** `releaseMoved`: a roadmap GA or preview date moved within the last 7 / 30 days. */
export const RELEASE_MOVED_WINDOWS = ['7days', '30days'] as const;
export type ReleaseMovedWindow = (typeof RELEASE_MOVED_WINDOWS)[number];
export const RELEASE_MOVED_DAYS: Record<ReleaseMovedWindow, number> = { '7days': 7, '30days': 30 };

/**
 * `rollingOut`: items whose timing (a post's rollout windows, a roadmap item's GA month) overlaps the next 7 / 30 / 90
 * days from today: rolling out now or starting within the window.
 */
export const ROLLING_OUT_WINDOWS = ['7days', '30days', '90days'] as const;
export type RollingOutWindow = (typeof ROLLING_OUT_WINDOWS)[number];
export const ROLLING_OUT_DAYS: Record<RollingOutWindow, number> = { '7days': 7, '30days': 30, '90days': 90 };

/**
 * Product families of the roadmap (the AI at Work Roadmap carries Dynamics 365, Power Platform and Dataverse items
 * beside Microsoft 365 since September 2026) and of Message Center services. An item belongs to the family of each of
 * its products; which family a product is in follows rules (productFamilyOf) that an admin can override per product.
 */
export const PRODUCT_FAMILIES = ['microsoft365', 'dynamics365', 'powerPlatform', 'other'] as const;
export type ProductFamily = (typeof PRODUCT_FAMILIES)[number];
export const PRODUCT_FAMILY_LABELS: Record<ProductFamily, string> = {
  microsoft365: 'Microsoft 365',
  dynamics365: 'Dynamics 365',
  powerPlatform: 'Power Platform',
  other: 'Other',
};

/**
 * The dashboard visit ("since your last visit") is written at most this often per user by default
 * (LAST_VISIT_UPDATE_SECONDS): reloads and route changes within it keep the same baseline.
 */
export const LAST_VISIT_UPDATE_SECONDS_DEFAULT = 300;

/** Roadmap statuses as the feed spells them. Filters compare case-insensitively. */
export const ROADMAP_STATUSES = ['In development', 'Rolling out', 'Launched', 'Cancelled'] as const;

/** Cloud instances as the roadmap feed names them, with the short labels the filter shows. */
export const CLOUD_INSTANCES = [
  { value: 'Worldwide (Standard Multi-Tenant)', label: 'Worldwide' },
  { value: 'GCC', label: 'GCC' },
  { value: 'GCC High', label: 'GCC High' },
  { value: 'DoD', label: 'DoD' },
] as const;

export const HISTORY_CHANGE_TYPES = ['new', 'changed', 'removed'] as const;
export type HistoryChangeType = (typeof HISTORY_CHANGE_TYPES)[number];

export const THIRD_PARTY_LINK_TYPES = ['other', 'video', 'blog', 'documentation', 'tutorial'] as const;
export type ThirdPartyLinkType = (typeof THIRD_PARTY_LINK_TYPES)[number];

export const MODERATOR_ACTION_TYPES = [
  'featured',
  'unfeatured',
  'link_added',
  'link_removed',
  'note_added',
  'note_updated',
  'note_removed',
  'triage_changed',
  'comment_added',
  'comment_edited',
  'comment_deleted',
] as const;
export type ModeratorActionType = (typeof MODERATOR_ACTION_TYPES)[number];

export const ITEM_SUBSCRIPTION_CHANGE_TYPES = ['changed', 'status_change'] as const;
export const SUBSCRIPTION_TYPES = ['item', 'weekly_digest'] as const;

/** `/?signin=1` (where GET /api/login and the no-account mail send a reader) opens the sign-in dialog. */
export const SIGN_IN_PARAM = 'signin';
/** The query parameter the sign-out page's form redirects to (`/?signedOut=1`): the shell then shows 'Signed out successfully'. */
export const SIGNED_OUT_PARAM = 'signedOut';
/** `/?recovery=<e-mail>` opens the sign-in dialog at the code step for that address (the admin recovery code). */
export const RECOVERY_PARAM = 'recovery';

export const ROLE_NAMES = { admin: 'Admin', moderator: 'Moderator', user: 'User' } as const;
export const BUILT_IN_ROLES = [ROLE_NAMES.admin, ROLE_NAMES.moderator, ROLE_NAMES.user] as const;
export const IMPERSONATION_CHOICES = ['Admin', 'Moderator', 'User'] as const;

/** Fields that change without meaning anything; the history view ignores them. */
export const IGNORED_HISTORY_FIELDS = ['lastModified', 'lastUpdated', 'modifiedDate'] as const;

/**
 * Triage: what a team decided about an item (or, for a post or issue several tenants received, about it in one
 * tenant). Open states are the work still to do; the queue views and reminders read only those.
 */
export const TRIAGE_STATES = ['new', 'relevant', 'not_relevant', 'in_progress', 'done'] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];
export const TRIAGE_STATE_LABELS: Record<TriageState, string> = {
  new: 'New',
  relevant: 'Relevant',
  not_relevant: 'Not relevant',
  in_progress: 'In progress',
  done: 'Done',
};
export const OPEN_TRIAGE_STATES = ['new', 'relevant', 'in_progress'] as const satisfies readonly TriageState[];
export const TRIAGE_PRIORITIES = ['high', 'medium', 'low'] as const;
export type TriagePriority = (typeof TRIAGE_PRIORITIES)[number];
export const TRIAGE_PRIORITY_LABELS: Record<TriagePriority, string> = { high: 'High', medium: 'Medium', low: 'Low' };
/** The queue views: my open items, open items nobody owns, open items past their due date or due within 30 days, done. */
export const TRIAGE_VIEWS = ['mine', 'unassigned', 'overdue', 'due-soon', 'done'] as const;
export type TriageView = (typeof TRIAGE_VIEWS)[number];
export const TRIAGE_VIEW_LABELS: Record<TriageView, string> = {
  mine: 'My queue',
  unassigned: 'Unassigned',
  overdue: 'Overdue',
  'due-soon': 'Due in 30 days',
  done: 'Done',
};
/** "Due soon" reaches this many days ahead (today included). */
export const TRIAGE_DUE_SOON_DAYS = 30;
/** The most items one bulk change may touch. */
export const TRIAGE_BULK_MAX = 500;
/**
 * Why a record is closed when no person closed it: `before_tracking`, its item was already past at the starting line
 * (a roadmap item Launched or Cancelled, an expired post, a resolved issue, an act-by date more than the start window
 * before the line). Such a record is never counted as done by someone.
 */
export const TRIAGE_CLOSED_REASONS = ['before_tracking'] as const;
export type TriageClosedReason = (typeof TRIAGE_CLOSED_REASONS)[number];
export const TRIAGE_CLOSED_REASON_LABELS: Record<TriageClosedReason, string> = { before_tracking: 'Closed before tracking' };

/** A record's state as the list, the export and the queues say it: a record closed before tracking is not "Done". */
export function triageStateLabel(state: TriageState, closedReason: TriageClosedReason | null | undefined): string {
  return closedReason ? TRIAGE_CLOSED_REASON_LABELS[closedReason] : TRIAGE_STATE_LABELS[state];
}

/**
 * Overdue means ours: an open record whose due date is before `today` (YYYY-MM-DD, UTC) and passed while it was open:
 * `overdueFrom` is the earliest due date that counts (null: any, for a date a person set or Microsoft's act-by date;
 * otherwise the day the record entered tracking). The SQL twin is the api's `overdueOn`.
 */
export function triageOverdue(r: { state: TriageState; dueDate: string | null; overdueFrom: string | null }, today: string): boolean {
  return (
    (OPEN_TRIAGE_STATES as readonly string[]).includes(r.state) &&
    r.dueDate !== null &&
    r.dueDate < today &&
    (r.overdueFrom === null || r.dueDate >= r.overdueFrom)
  );
}
/** How many days before the starting line an act-by date may lie and its post still open a record, by default. */
export const TRIAGE_START_WINDOW_DEFAULT_DAYS = 30;
export const TRIAGE_START_WINDOW_MAX_DAYS = 365;
/** The item types of the triage API's paths, and the list's sources they stand for. */
export const TRIAGE_ITEM_TYPES = ['roadmap', 'message-center', 'service-health'] as const;
export type TriageItemType = (typeof TRIAGE_ITEM_TYPES)[number];
export const TRIAGE_ITEM_TYPE_SOURCES: Record<TriageItemType, Source> = { roadmap: 'roadmap', 'message-center': 'messages', 'service-health': 'health' };
/**
 * Where a due date came from: set by a person, Microsoft's "act by" date, the start of the post's rollout window, the
 * roadmap item's GA month, or nothing to go by.
 */
export const TRIAGE_DUE_SOURCES = ['manual', 'action_required', 'rollout_start', 'roadmap_ga', 'none'] as const;
export type TriageDueSource = (typeof TRIAGE_DUE_SOURCES)[number];
export const TRIAGE_DUE_SOURCE_LABELS: Record<TriageDueSource, string> = {
  manual: 'Set by hand',
  action_required: "Microsoft's act-by date",
  rollout_start: 'Start of the rollout',
  roadmap_ga: 'Roadmap GA month',
  none: 'No date to go by',
};
/** Where a priority came from: a person, a triage rule, or Microsoft's signals on the item. */
export const TRIAGE_PRIORITY_SOURCES = [
  'manual',
  'rule',
  'high_severity',
  'action_required_major',
  'action_required',
  'major_change',
  'incident',
  'advisory',
  'no_signal',
] as const;
export type TriagePrioritySource = (typeof TRIAGE_PRIORITY_SOURCES)[number];
export const TRIAGE_PRIORITY_SOURCE_LABELS: Record<TriagePrioritySource, string> = {
  manual: 'Set by hand',
  rule: 'Set by a triage rule',
  high_severity: 'Microsoft marks it high severity',
  action_required_major: 'Major change with an act-by date',
  action_required: 'Action required by a date',
  major_change: 'Major change',
  incident: 'Service incident',
  advisory: 'Service advisory',
  no_signal: 'No action, severity or major-change signal',
};
/** The longest comment, in characters. */
export const TRIAGE_COMMENT_MAX_CHARS = 5000;
/** The triage mails, each switched off on its own: given an item, mentioned in a comment, due in 7 days, overdue. */
export const TRIAGE_MAIL_KINDS = ['assigned', 'mentioned', 'due_soon', 'overdue', 'change_health'] as const;
export type TriageMailKind = (typeof TRIAGE_MAIL_KINDS)[number];
export const TRIAGE_MAIL_KIND_LABELS: Record<TriageMailKind, string> = {
  assigned: 'Items given to you',
  mentioned: 'Mentions in comments',
  due_soon: 'Items due in 7 days',
  overdue: 'Items that became overdue',
  change_health: 'The weekly change health report (admins)',
};
/** The kinds of the daily mail about one's own items; `change_health` is the admins' weekly report. */
export const TRIAGE_OWN_MAIL_KINDS = ['assigned', 'mentioned', 'due_soon', 'overdue'] as const satisfies readonly TriageMailKind[];
/** A reminder goes this many days before an item's due date. */
export const TRIAGE_DUE_SOON_REMINDER_DAYS = 7;
