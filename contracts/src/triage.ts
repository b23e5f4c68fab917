import { z } from './zod.js';
import {
  TRIAGE_MAIL_KINDS,
  TRIAGE_BULK_MAX,
  TRIAGE_CLOSED_REASONS,
  TRIAGE_START_WINDOW_MAX_DAYS,
  TRIAGE_COMMENT_MAX_CHARS,
  TRIAGE_DUE_SOURCES,
  TRIAGE_ITEM_TYPES,
  TRIAGE_PRIORITIES,
  TRIAGE_PRIORITY_SOURCES,
  TRIAGE_STATES,
  TRIAGE_VIEWS,
} from './constants.js';
import { savedSearchQuery } from './alerts.js';
import { itemListQuery, unifiedItem } from './items.js';

const itemType = z.enum(TRIAGE_ITEM_TYPES, { error: `itemType must be one of ${TRIAGE_ITEM_TYPES.join(', ')}` });
const itemId = z.string().trim().min(1, 'itemId is required').max(50, 'itemId is too long');
const tenantId = z.coerce.number({ error: 'tenant must be a tenant id' }).int('tenant must be a tenant id').positive('tenant must be a tenant id');
/** A calendar day, YYYY-MM-DD, that exists. */
const calendarDayNamed = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d,
      `${field} must be a date that exists`,
    );
const calendarDay = calendarDayNamed('dueDate');

/** `/api/triage/{itemType}/{itemId}`: roadmap items by their number, posts by MC id, health issues by their id. */
export const triageItemParams = z.object({ itemType, itemId });
export type TriageItemParams = z.infer<typeof triageItemParams>;
/** For a post or issue several tenants received, which tenant's record (not needed when it reached one tenant). */
export const triageTenantQuery = z.object({ tenant: tenantId.optional() });

const state = z.enum(TRIAGE_STATES, { error: `state must be one of ${TRIAGE_STATES.join(', ')}` });
const priority = z.enum(TRIAGE_PRIORITIES, { error: `priority must be one of ${TRIAGE_PRIORITIES.join(', ')}` });
const ownerId = z
  .number({ error: 'ownerId must be a user id or null' })
  .int('ownerId must be a user id or null')
  .positive('ownerId must be a user id or null')
  .nullable();

/**
 * PUT /api/triage/{itemType}/{itemId}: the fields to change (those left out stay). `dueDate: null` means no due date;
 * `reset` gives a field back to its default (the rule that set it applies again as the item changes). A field sent
 * with the value it already has changes nothing, so a form may send the whole record.
 */
export const triageUpdate = z
  .object({
    state: state.optional(),
    ownerId: ownerId.optional(),
    dueDate: calendarDay.nullable().optional(),
    priority: priority.optional(),
    reset: z.array(z.enum(['dueDate', 'priority'], { error: 'reset may hold dueDate and priority' })).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Send at least one of state, ownerId, dueDate, priority, reset');
export type TriageUpdate = z.infer<typeof triageUpdate>;

export const triagePerson = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type TriagePerson = z.infer<typeof triagePerson>;

/** One triage record as read, with where its due date and priority came from. */
export const triageRecord = z.object({
  itemType,
  itemId: z.string(),
  /** The tenant this record is for (a post or issue is triaged per tenant); null: the item's one record. */
  tenantId: z.number().int().nullable(),
  tenantName: z.string().nullable(),
  state,
  ownerId: z.number().int().nullable(),
  owner: triagePerson.nullable(),
  dueDate: z.string().nullable(),
  dueDateSource: z.enum(TRIAGE_DUE_SOURCES),
  /** Why the due date is what it is, in words ("Microsoft's act-by date"). */
  dueDateReason: z.string(),
  priority,
  prioritySource: z.enum(TRIAGE_PRIORITY_SOURCES),
  priorityReason: z.string(),
  /** Open comments on the record. */
  commentCount: z.number().int(),
  /** The fields a triage rule set, and which rule (a person's later change takes a field out). */
  setByRules: z.array(z.object({ field: z.enum(['owner', 'state', 'priority']), ruleId: z.number().int(), ruleName: z.string() })),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** What the caller may change: everything (moderators, admins), the state and conversation (the owner), nothing. */
  canEdit: z.enum(['all', 'state', 'none']),
  /**
   * false: a roadmap item nobody opened for triage (roadmap items are triaged when a person, a rule or a post that
   * announces them opens them); the fields are the defaults a record would start with, and nothing is stored.
   */
  opened: z.boolean(),
  /** Why a closed record is closed when no person closed it: the item was already past at the starting line. */
  closedReason: z.enum(TRIAGE_CLOSED_REASONS).nullable(),
  /** The starting line of the record's tenant (or of the records of no tenant), YYYY-MM-DD: triage counts from that day. */
  startLine: z.string().nullable(),
  /** Open, with a due date that passed while it was open (or one a person or Microsoft's act-by date set). */
  overdue: z.boolean(),
});
export type TriageRecord = z.infer<typeof triageRecord>;

/**
 * Whether the tenants license the item's products: `licensed` (by the tenants named), `not_licensed` (every product
 * is one the licence rules know and no tenant licenses it), `unknown` (a product no rule knows), `not_read` (no
 * tenant's licences were read). Of the tenants the caller may see; the record's own tenant when it has one.
 */
export const triageLicence = z.object({
  status: z.enum(['licensed', 'not_licensed', 'unknown', 'not_read']),
  tenants: z.array(z.string()),
  unknownProducts: z.array(z.string()),
});
export type TriageLicence = z.infer<typeof triageLicence>;

/** GET /api/triage/{itemType}/{itemId}: the record, and every tenant the item has a record for (those the caller may see). */
export const triageRecordResponse = triageRecord.extend({
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  licence: triageLicence,
});
export type TriageRecordResponse = z.infer<typeof triageRecordResponse>;

export const triageCommentBody = z
  .object({
    body: z
      .string({ error: 'body is required' })
      .trim()
      .min(1, 'body is required')
      .max(TRIAGE_COMMENT_MAX_CHARS, `body must be at most ${TRIAGE_COMMENT_MAX_CHARS} characters`),
  })
  .strict();
export const triageCommentParams = triageItemParams.extend({
  commentId: z.coerce.number({ error: 'commentId must be a comment id' }).int('commentId must be a comment id').positive('commentId must be a comment id'),
});

/** A comment: plain text; `@someone@example.com` mentions a user. Edits keep what it said before; a deleted one keeps its place. */
export const triageComment = z.object({
  id: z.number().int(),
  author: triagePerson.nullable(),
  /** Empty once deleted. */
  body: z.string(),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  deletedAt: z.string().nullable(),
  mentions: z.array(triagePerson),
  /** What the comment said before each edit (and before it was deleted), oldest first. */
  history: z.array(z.object({ body: z.string(), until: z.string() })),
  /** The caller wrote it (and so may edit or delete it). */
  mine: z.boolean(),
});
export type TriageComment = z.infer<typeof triageComment>;
export const triageCommentsResponse = z.object({ comments: z.array(triageComment) });

const { sortField: _sortField, sortDirection: _sortDirection, ...listFilters } = itemListQuery.shape;
/** GET /api/triage: one of the queue views, with any of the list's filters. */
export const triageQueueQuery = z.object({
  ...listFilters,
  view: z.enum(TRIAGE_VIEWS, { error: `view must be one of ${TRIAGE_VIEWS.join(', ')}` }),
});
export type TriageQueueParams = z.input<typeof triageQueueQuery>;

/** The queue: one row per record (a post several tenants received can appear once per tenant), nearest due date first. */
export const triageQueueResponse = z.object({
  rows: z.array(z.object({ item: unifiedItem, triage: triageRecord })),
  total: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
});
export type TriageQueueResponse = z.infer<typeof triageQueueResponse>;

/** The records a bulk request names: an item, and its tenant where it is triaged per tenant (at most 500). */
export const triageBulkItems = z
  .array(z.object({ itemType, itemId, tenant: tenantId.optional() }).strict(), { error: 'items must be a list' })
  .min(1, 'items must hold at least one item')
  .max(TRIAGE_BULK_MAX, `items may hold at most ${TRIAGE_BULK_MAX} items`);
export type TriageBulkItems = z.infer<typeof triageBulkItems>;

export const triageBulkBody = z
  .object({
    items: triageBulkItems,
    set: z
      .object({ state: state.optional(), ownerId: ownerId.optional(), dueDate: calendarDay.nullable().optional(), priority: priority.optional() })
      .strict()
      .refine((s) => Object.values(s).some((v) => v !== undefined), 'set must change at least one of state, ownerId, dueDate, priority'),
  })
  .strict();
export type TriageBulkBody = z.input<typeof triageBulkBody>;
export const triageBulkResponse = z.object({ updated: z.number().int() });

/** GET /api/triage/people: users to give an item to or mention (moderators and admins). */
/** The people picker's search; with `tenant`, only people who may see that tenant's records (whom a record of it may go to). */
export const triagePeopleQuery = z.object({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  tenant: tenantId.optional(),
});
export const triagePeopleResponse = z.object({ people: z.array(triagePerson) });

/** The counts in the header menu: the caller's open items and how many of them are overdue. */
export const triageCountsResponse = z.object({ open: z.number().int(), overdue: z.number().int() });
export type TriageCountsResponse = z.infer<typeof triageCountsResponse>;

/** GET/PUT /api/triage/mail: which triage mails the caller gets (each kind on or off). */
export const triageMailSettings = z.object({
  kinds: z.array(z.object({ kind: z.enum(TRIAGE_MAIL_KINDS), label: z.string(), enabled: z.boolean() })),
});
export type TriageMailSettings = z.infer<typeof triageMailSettings>;
export const triageMailUpdate = z
  .object({
    enabled: z.array(z.enum(TRIAGE_MAIL_KINDS, { error: `enabled may hold ${TRIAGE_MAIL_KINDS.join(', ')}` }), {
      error: 'enabled must be a list of mail kinds',
    }),
  })
  .strict();

/**
 * A triage rule as an admin writes it: when a new item matches `query` (a dashboard view: the list's filters, as a
 * saved search keeps them), set the owner, state and/or priority.
 */
export const triageRuleInput = z
  .object({
    name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
    enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
    query: savedSearchQuery,
    setOwnerId: ownerId.default(null),
    setState: state.nullable().default(null),
    setPriority: priority.nullable().default(null),
    /** A tracker (Admin → Trackers) each matching record is pushed to as a task. */
    createTaskIn: z
      .number({ error: 'createTaskIn must be a tracker id or null' })
      .int('createTaskIn must be a tracker id or null')
      .positive('createTaskIn must be a tracker id or null')
      .nullable()
      .default(null),
  })
  .strict()
  .refine((r) => r.setOwnerId !== null || r.setState !== null || r.setPriority !== null || r.createTaskIn !== null, {
    path: ['setOwnerId'],
    message: 'A rule must set at least one of owner, state or priority, or create a task',
  });
export type TriageRuleInput = z.input<typeof triageRuleInput>;

export const triageRule = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  enabled: z.boolean(),
  query: z.record(z.string(), z.unknown()),
  setOwner: triagePerson.nullable(),
  setState: state.nullable(),
  setPriority: priority.nullable(),
  createTaskIn: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  updatedAt: z.string(),
});
export type TriageRule = z.infer<typeof triageRule>;
export const triageRulesResponse = z.object({ rules: z.array(triageRule) });
export const triageRuleParams = z.object({
  ruleId: z.coerce.number({ error: 'ruleId must be a rule id' }).int('ruleId must be a rule id').positive('ruleId must be a rule id'),
});
export const triageRuleOrder = z
  .object({ ids: z.array(z.number().int().positive(), { error: 'ids must be the rule ids in their new order' }).min(1, 'ids must list the rules') })
  .strict();
/** What running the rules over the open items changed. */
export const triageRulesRunResponse = z.object({ changed: z.number().int() });

/**
 * The triage settings: how far before the starting line an act-by date may lie and still open a record
 * (`startWindowDays`), and whether every upcoming roadmap item gets a record (`openUpcomingRoadmap`; otherwise roadmap
 * items are opened by a person, a rule, or a triaged post that announces them).
 */
export const triageSettings = z.object({
  startWindowDays: z.number().int(),
  openUpcomingRoadmap: z.boolean(),
});
export type TriageSettings = z.infer<typeof triageSettings>;
export const triageSettingsUpdate = z
  .object({
    startWindowDays: z
      .number({ error: 'startWindowDays must be a whole number of days' })
      .int('startWindowDays must be a whole number of days')
      .min(0, 'startWindowDays must be 0 or more')
      .max(TRIAGE_START_WINDOW_MAX_DAYS, `startWindowDays must be at most ${TRIAGE_START_WINDOW_MAX_DAYS}`)
      .optional(),
    openUpcomingRoadmap: z.boolean({ error: 'openUpcomingRoadmap must be true or false' }).optional(),
  })
  .strict()
  .refine((b) => b.startWindowDays !== undefined || b.openUpcomingRoadmap !== undefined, 'Send startWindowDays or openUpcomingRoadmap');
export type TriageSettingsUpdate = z.infer<typeof triageSettingsUpdate>;

/** One starting line: a tenant's, or (tenantId null) that of the records of no tenant; with its records open and closed before it. */
export const triageStartLine = z.object({
  tenantId: z.number().int().nullable(),
  tenantName: z.string(),
  from: z.string(),
  open: z.number().int(),
  closedBeforeTracking: z.number().int(),
});
export type TriageStartLine = z.infer<typeof triageStartLine>;
/** GET /api/triage/start: the settings and every starting line. */
export const triageStartResponse = z.object({ settings: triageSettings, lines: z.array(triageStartLine) });
export type TriageStartResponse = z.infer<typeof triageStartResponse>;

/**
 * POST /api/triage/start: moves a starting line to `from` (a day not after today). Records nobody touched of items
 * already past on that day are closed before tracking; records closed before tracking of items not past then are
 * opened again. `preview` counts without changing anything.
 */
export const triageStartMove = z
  .object({
    tenantId: z
      .number({ error: 'tenantId must be a tenant id or null' })
      .int('tenantId must be a tenant id or null')
      .positive('tenantId must be a tenant id or null')
      .nullable(),
    from: calendarDayNamed('from'),
    preview: z.boolean({ error: 'preview must be true or false' }).default(false),
  })
  .strict();
export type TriageStartMove = z.input<typeof triageStartMove>;
export const triageStartMoveResponse = z.object({ opens: z.number().int(), closes: z.number().int(), applied: z.boolean() });
export type TriageStartMoveResponse = z.infer<typeof triageStartMoveResponse>;

/**
 * GET /api/triage/{itemType}/{itemId}/suggestion: a proposed state, owner and priority with a one-line reason, from
 * the AI service when one is configured, else from the triage rules and past assignments (`source` says which).
 * Nothing is applied: the client shows it, and a click saves it through PUT.
 */
export const triageSuggestion = z.object({
  source: z.enum(['ai', 'rules']),
  state: state,
  owner: triagePerson.nullable(),
  priority: priority,
  reason: z.string(),
  /** Why the AI was not asked or not used, when it was configured (the suggestion is then rule-based). */
  note: z.string().nullable(),
});
export type TriageSuggestion = z.infer<typeof triageSuggestion>;

export type TriageTenantQuery = z.input<typeof triageTenantQuery>;
export type TriageCommentBody = z.infer<typeof triageCommentBody>;
export type TriageCommentParams = z.infer<typeof triageCommentParams>;
export type TriageCommentsResponse = z.infer<typeof triageCommentsResponse>;
export type TriageBulkResponse = z.infer<typeof triageBulkResponse>;
export type TriagePeopleQuery = z.input<typeof triagePeopleQuery>;
export type TriagePeopleResponse = z.infer<typeof triagePeopleResponse>;
export type TriageMailUpdate = z.infer<typeof triageMailUpdate>;
export type TriageRuleOrder = z.infer<typeof triageRuleOrder>;
export type TriageRuleParams = z.infer<typeof triageRuleParams>;
export type TriageRulesResponse = z.infer<typeof triageRulesResponse>;
export type TriageRulesRunResponse = z.infer<typeof triageRulesRunResponse>;
