import { z } from './zod.js';
import { featureStatusEntry, messageAttachmentFile, messageSection, timingWindow } from './message-center.js';
import { queryBoolean, stringList } from './common.js';
import { listRelevance, relevanceFilter } from './item-relevance.js';
import { wordDiffPart } from './versions.js';
import {
  CHANGE_TYPE_OPTIONS,
  HEALTH_CLASSIFICATIONS,
  HEALTH_STATES,
  CHANGED_CHANGE_TYPES,
  HISTORY_CHANGE_TYPES,
  LIST_SORT_FIELDS,
  LIST_TIMELINES,
  MAX_PAGE_SIZE,
  NEW_CHANGE_TYPES,
  PAGE_SIZE,
  PRODUCT_FAMILIES,
  RELEASE_MOVED_WINDOWS,
  ROLLING_OUT_WINDOWS,
  SOURCES,
  THIRD_PARTY_LINK_TYPES,
  TRIAGE_PRIORITIES,
  TRIAGE_STATES,
  TRIAGE_VIEWS,
  TRIAGE_CLOSED_REASONS,
} from './constants.js';

export const thirdPartyLink = z.object({
  title: z.string().trim().min(1, 'title is required').max(300),
  url: z
    .string()
    .trim()
    .url('url must be a valid URL')
    .refine((u) => /^https?:\/\//i.test(u), 'url must start with http:// or https://'),
  type: z.enum(THIRD_PARTY_LINK_TYPES).default('other'),
  description: z.string().trim().max(2000).optional(),
  name: z.string().trim().max(300).optional(),
});
export type ThirdPartyLink = z.infer<typeof thirdPartyLink>;

/**
 * Date slips of a roadmap item (`publicDisclosureAvailabilityDate` = GA, `publicPreviewDate` = preview), counted by
 * the sync from the change history; see release-dates.ts for what counts as a move.
 */
export const releaseMoveStats = z.object({
  /** GA moves + preview moves: the key of `sortField=releaseMoves`. */
  total: z.number().int(),
  gaMoves: z.number().int(),
  /** Sum of the GA moves in months (the net shift since first seen when every date has a month). */
  gaShiftMonths: z.number().int(),
  previewMoves: z.number().int(),
  previewShiftMonths: z.number().int(),
  /** When the GA or preview date last moved; null if never. */
  lastMovedAt: z.string().nullable(),
});
export type ReleaseMoveStats = z.infer<typeof releaseMoveStats>;

/** One row of the unified list. Fields of the other source are null. */
export const unifiedItem = z.object({
  /** `roadmap-<itemId>`, `messages-<messageId>` or `health-<issueId>`: unique across the sources. */
  id: z.string(),
  source: z.enum(SOURCES),
  title: z.string(),
  itemId: z.string().nullable(),
  messageId: z.string().nullable(),
  /** A Service Health issue's id (EX123456); absent or null for the other sources. */
  issueId: z.string().nullable().optional(),
  /** Service Health: the issue is resolved (Graph `isResolved`); absent for the other sources. */
  isResolved: z.boolean().optional(),
  summary: z.string().nullable(),
  description: z.string().nullable(),
  status: z.string().nullable(),
  product: z.string().nullable(),
  service: z.array(z.string()).nullable(),
  services: z.string().nullable(),
  tags: z.array(z.string()),
  userImpact: z.boolean(),
  adminImpact: z.boolean(),
  isMajorChange: z.boolean(),
  isFeatured: z.boolean(),
  releaseDate: z.string().nullable(),
  previewDate: z.string().nullable().optional(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
  publishedDate: z.string().nullable(),
  lastUpdatedDate: z.string().nullable(),
  actionRequiredByDate: z.string().nullable().optional(),
  platforms: z.string().nullable(),
  cloudInstances: z.string().nullable(),
  releasePhase: z.string().nullable(),
  category: z.string().nullable().optional(),
  severity: z.string().nullable().optional(),
  value: z.string().nullable(),
  bodyContent: z.string().nullable(),
  moreInfoLink: z.string().nullable().optional(),
  externalLinks: z.array(z.object({ name: z.string(), url: z.string() })).optional(),
  attachments: z.array(z.unknown()),
  thirdPartyLinks: z.array(thirdPartyLink),
  /** Only present for moderators and admins. */
  moderatorNotes: z.string().nullable().optional(),
  moderatedBy: z.string().nullable(),
  isRemoved: z.boolean().optional(),
  /**
   * When a sync found the item gone from its feed (roadmap: removed; Message Center: expired or withdrawn); null
   * while it is in the feed. Removed items are listed only with `includeRemoved`, or found by their exact id.
   */
  removedAt: z.string().nullable().optional(),
  /** Message Center end date (Graph `endDateTime`): the post expires then. */
  endDate: z.string().nullable().optional(),
  /**
   * How often the dates moved since the item was first seen: a roadmap item's GA and preview dates; a Message Center
   * post's rollout timing (counted as GA moves).
   */
  releaseMoves: releaseMoveStats.nullable().optional(),
  /** A Message Center post's rollout windows, read from its schedule section; [] for roadmap items. */
  timing: z.array(timingWindow).optional(),
  /** When the change reaches tenants (YYYY-MM-DD): a post's earliest window start, a roadmap item's GA month. */
  timingStart: z.string().nullable().optional(),
  timingEnd: z.string().nullable().optional(),
});
export type UnifiedItem = z.infer<typeof unifiedItem>;

/**
 * GET /api/message-center/items/{messageId}: the post (removed and expired ones too) with its body cut into its
 * sections (sanitised; [] when the body has no recognisable headings: `bodyContent` is the whole post either way)
 * and the rollout status Microsoft reports for the tenant, per platform ("Status for your org").
 */
export const messageCenterItemResponse = unifiedItem.extend({
  sections: z.array(messageSection),
  tenantStatus: z.array(featureStatusEntry),
  /** The post's attachments, each downloadable through the api (never shown inline). */
  attachmentFiles: z.array(messageAttachmentFile),
  /**
   * The tenants that received the post (those the caller may see), with when each first listed it, the version it
   * showed last, and whether it still lists it; [] for a post of no tenant.
   */
  tenants: z.array(z.object({ id: z.number().int(), name: z.string(), firstSeen: z.string(), lastModified: z.string().nullable(), expired: z.boolean() })),
  /** Service Health issues of the post's services around its weeks (those the caller may see), closest in time first. */
  relatedIssues: z.array(unifiedItem).optional(),
});
export type MessageCenterItemResponse = z.infer<typeof messageCenterItemResponse>;

const changeTypes = stringList
  .pipe(z.array(z.enum(CHANGE_TYPE_OPTIONS)))
  .refine(
    (list) =>
      list.filter((c) => (NEW_CHANGE_TYPES as readonly string[]).includes(c)).length <= 1 &&
      list.filter((c) => (CHANGED_CHANGE_TYPES as readonly string[]).includes(c)).length <= 1,
    'changeTypes may hold at most one new_* and one changed_* option',
  );

/** An item's triage as the list shows it (State, Owner, Due columns). */
export const listTriage = z.object({
  tenantId: z.number().int().nullable(),
  state: z.enum(TRIAGE_STATES),
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  dueDate: z.string().nullable(),
  priority: z.enum(TRIAGE_PRIORITIES),
  /** Why a closed record is closed when no person closed it (closed before tracking), else null. */
  closedReason: z.enum(TRIAGE_CLOSED_REASONS).nullable(),
  /** The earliest due date that makes the open record overdue (null: any); see triageOverdue. */
  overdueFrom: z.string().nullable(),
});
export type ListTriage = z.infer<typeof listTriage>;

/** Query of GET /api/unified/items and GET /api/dashboard/export. */
export const itemListQuery = z.object({
  page: z.coerce.number().int().min(1, 'page must be 1 or more').default(1),
  limit: z.coerce.number().int().min(1, 'limit must be 1 or more').max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`).default(PAGE_SIZE),
  /** releaseMoves: most date moves (GA + preview) first with the default `desc`, then newest. */
  sortField: z.enum(LIST_SORT_FIELDS).default('createdDate'),
  sortDirection: z.enum(['asc', 'desc']).default('desc'),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  products: stringList.optional(),
  /** Free status filter over both sources (roadmap status; message category). */
  statuses: stringList.optional(),
  sources: stringList.pipe(z.array(z.enum(SOURCES))).optional(),
  timeline: z.enum(LIST_TIMELINES).optional(),
  changeTypes: changeTypes.optional(),
  roadmapStatuses: stringList.optional(),
  messageCenterTags: stringList.optional(),
  cloudInstances: stringList.optional(),
  moderatorFeatured: queryBoolean.optional(),
  featured: queryBoolean.optional(),
  /** Also list items removed from the roadmap feed and expired Message Center posts (off by default). */
  includeRemoved: queryBoolean.optional(),
  /** Roadmap items whose GA or preview date, and posts whose rollout timing, moved within the window. */
  releaseMoved: z.enum(RELEASE_MOVED_WINDOWS).optional(),
  /** Items rolling out now or starting within the next N days (a post's rollout windows, a roadmap item's GA month). */
  rollingOut: z.enum(ROLLING_OUT_WINDOWS).optional(),
  /** Items with a product in any of these families (Microsoft 365, Dynamics 365, Power Platform, other). */
  productFamilies: stringList.pipe(z.array(z.enum(PRODUCT_FAMILIES, { error: `productFamilies may hold ${PRODUCT_FAMILIES.join(', ')}` }))).optional(),
  /** Signed-in users only: items new or changed since the caller's previous dashboard visit. */
  sinceLastVisit: queryBoolean.optional(),
  /** Service Health issues still open (`active`) or resolved; the other sources are left out. */
  healthStatus: z.enum(HEALTH_STATES).optional(),
  /** Service Health issues of these classifications (incident, advisory); the other sources are left out. */
  healthClassifications: stringList
    .pipe(z.array(z.enum(HEALTH_CLASSIFICATIONS, { error: `healthClassifications may hold ${HEALTH_CLASSIFICATIONS.join(', ')}` })))
    .optional(),
  /** Message Center posts and Service Health issues any of these tenants received (ids of GET /api/tenants); roadmap items are left out. */
  tenants: z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
    .transform((v) => (Array.isArray(v) ? v : String(v).split(',')).map((x) => String(x).trim()).filter(Boolean))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[1-9]\d{0,8}$/, 'tenants must be tenant ids')
          .transform(Number),
      ),
    )
    .optional(),
  /**
   * Only items of products the tenants license (of the tenants the caller may see, or of `tenants` when given): items
   * with a licensed product, a product every tenant has, or a product no licence rule knows ("unknown" is kept).
   * Without any tenant's licences read it filters nothing.
   */
  licensed: queryBoolean.optional(),
  /**
   * Signed-in users only: items whose relevance to one of the tenants in scope (those the caller may see, or of
   * `tenants`) is one of these levels (`relevance=high`). Guests: refused.
   */
  relevance: relevanceFilter.optional(),
  /** Signed-in users only: items with a triage record in this queue view (my queue, unassigned, overdue, due soon, done). */
  triage: z.enum(TRIAGE_VIEWS, { error: `triage must be one of ${TRIAGE_VIEWS.join(', ')}` }).optional(),
});
export type ItemListQuery = z.infer<typeof itemListQuery>;
/** What the client sends (before defaults and coercion). */
export type ItemListParams = z.input<typeof itemListQuery>;

export const itemListResponse = z.object({
  items: z.array(unifiedItem),
  total: z.number().int(),
  /**
   * Present (true) when `total` and `totalPages` are PostgreSQL's estimate: a search with more than 1,000 matches.
   * Show it as "about 13,000". Up to 1,000 matches, and for every list without a search, the total is exact.
   */
  totalApproximate: z.literal(true).optional(),
  totalPages: z.number().int(),
  page: z.number().int().optional(),
  /**
   * For the items of the page that tenants received (by unified id): the ids of those tenants the caller may see
   * (GET /api/tenants names them). Absent when no item of the page has any.
   */
  receivedBy: z.record(z.string(), z.array(z.number().int())).optional(),
  /**
   * Signed-in callers: the triage of each item of the page (by unified id), one entry per record (a post several
   * tenants received has one per tenant the caller may see). Never present for guests.
   */
  triage: z.record(z.string(), z.array(listTriage)).optional(),
  /**
   * Signed-in callers: each item's relevance (by unified id), the highest among the tenants in scope. Absent for
   * guests and when no item of the page has any (no tenant's usage computed).
   */
  relevance: z.record(z.string(), listRelevance).optional(),
});
export type ItemListResponse = z.infer<typeof itemListResponse>;

/** Query of GET /api/roadmap/items and GET /api/message-center/items (the admin's digest reports). */
export const sourceItemsQuery = z.object({
  changeTypes: changeTypes.optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`).default(PAGE_SIZE),
});

export const changeHistoryEntry = z.object({
  id: z.number().int(),
  changeType: z.enum(HISTORY_CHANGE_TYPES),
  changeDate: z.string(),
  changedFields: z.array(z.string()),
  previousValues: z.record(z.string(), z.unknown()),
  newValues: z.record(z.string(), z.unknown()),
  /** A cosmetic edit: only whitespace, punctuation or letter case changed (kept, badged, never e-mailed). */
  minor: z.boolean().optional(),
  /** Present on the admin change-history list. */
  source: z.enum(SOURCES).optional(),
  roadmapItem: z.object({ itemId: z.string(), title: z.string() }).nullable().optional(),
  messageCenterItem: z.object({ messageId: z.string(), title: z.string() }).nullable().optional(),
  healthIssue: z.object({ issueId: z.string(), title: z.string() }).nullable().optional(),
  /**
   * Present on the admin change-history list: for each changed text field (title, description, summary, body) the
   * word diff of its readable text, with long unchanged stretches cut to the words around each change ('…' marks a
   * cut), so a change late in a long body is in view. Plain text: render as text, never as HTML.
   */
  textDiffs: z.array(z.object({ field: z.string(), parts: z.array(wordDiffPart) })).optional(),
});
export type ChangeHistoryEntry = z.infer<typeof changeHistoryEntry>;

export const filterOptionsResponse = z.object({
  products: z.array(z.string()),
  roadmapStatuses: z.array(z.string()),
  messageCenterTags: z.array(z.string()),
  cloudInstances: z.array(z.string()),
});
export type FilterOptionsResponse = z.infer<typeof filterOptionsResponse>;

const nameCount = z.object({ name: z.string(), count: z.number().int() });
export const filterCountsResponse = z.object({
  roadmapStatuses: z.array(nameCount),
  messageCenterTags: z.array(nameCount),
});
export type FilterCountsResponse = z.infer<typeof filterCountsResponse>;

export const dashboardStatsResponse = z.object({
  total: z.number().int(),
  /** Live items per source (Service Health: every issue kept, open or resolved). */
  bySource: z.object({ roadmap: z.number().int(), messages: z.number().int(), health: z.number().int().optional() }),
  byStatus: z.array(nameCount),
  newLast7Days: z.number().int(),
  updatedLast7Days: z.number().int(),
  featured: z.number().int(),
  lastSync: z.object({ roadmap: z.string().nullable(), messages: z.string().nullable(), health: z.string().nullable().optional() }),
  isDemoData: z.boolean(),
});
export type DashboardStatsResponse = z.infer<typeof dashboardStatsResponse>;

/** Featured card: product for roadmap items, services for messages. */
export const featuredItem = z.object({
  source: z.enum(SOURCES),
  id: z.string(),
  itemId: z.string().nullable(),
  messageId: z.string().nullable(),
  /** A Service Health issue's id (EX123456); absent or null for the other sources. */
  issueId: z.string().nullable().optional(),
  /** Service Health: the issue is resolved (Graph `isResolved`); absent for the other sources. */
  isResolved: z.boolean().optional(),
  title: z.string(),
  description: z.string().nullable(),
  summary: z.string().nullable(),
  product: z.string().nullable(),
  services: z.string().nullable(),
  status: z.string().nullable(),
});
export type FeaturedItem = z.infer<typeof featuredItem>;

export const featuredRecentQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(6) });
export const featuredTimeframeQuery = z.object({
  startDate: z.string().datetime({ offset: true, error: 'startDate must be an ISO date-time' }),
  endDate: z.string().datetime({ offset: true, error: 'endDate must be an ISO date-time' }),
  limit: z.coerce.number().int().min(1).max(50).default(6),
});

export const statsQuery = z.object({ sources: stringList.pipe(z.array(z.enum(SOURCES))).optional() });

/** GET /api/roadmap/items and GET /api/message-center/items: one page of one source. */
export const sourceItemsResponse = z.object({
  items: z.array(unifiedItem),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
});
export type SourceItemsResponse = z.infer<typeof sourceItemsResponse>;

export const featuredItemsResponse = z.array(featuredItem);
export type FeaturedItemsResponse = z.infer<typeof featuredItemsResponse>;
export type FeaturedRecentQuery = z.input<typeof featuredRecentQuery>;
export type FeaturedTimeframeQuery = z.input<typeof featuredTimeframeQuery>;
export type StatsQuery = z.input<typeof statsQuery>;
export type SourceItemsQuery = z.input<typeof sourceItemsQuery>;
