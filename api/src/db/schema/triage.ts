/** Triage: what the team decided about each item, who owns it, by when, and the conversation about it. */
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, unique } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { items, itemSource } from './items.js';
import { users } from './people.js';
import { tenants } from './tenants.js';

/**
 * One record per item, or per item and tenant for a post or issue tenants received (each tenant's team decides for
 * itself). Opened by the sync for every new item and tenant (features/triage/triage.repo.ts `openRecords`), so the
 * queue views read this table alone. `due_date` and `priority` always hold the value in force: a person's
 * (`*_source` 'manual'), a rule's, or the default read from the item, which the sync keeps current as the item changes.
 */
export const triageRecords = pgTable(
  'triage_records',
  {
    id: serial('id').primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    /** new | relevant | not_relevant | in_progress | done */
    state: text('state').notNull().default('new'),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    dueDate: date('due_date', { mode: 'string' }),
    /** contracts TRIAGE_DUE_SOURCES */
    dueSource: text('due_source').notNull().default('none'),
    /** high | medium | low */
    priority: text('priority').notNull().default('low'),
    /** contracts TRIAGE_PRIORITY_SOURCES */
    prioritySource: text('priority_source').notNull().default('no_signal'),
    /** When the state last became done (the "done this week" of the reports); null while not done. */
    doneAt: ts('done_at'),
    /**
     * Why a closed record is closed when no person closed it (contracts TRIAGE_CLOSED_REASONS): 'before_tracking', its
     * item was already past at the starting line (state 'done', done_at null: never counted as done by someone). A
     * person's change of state clears it.
     */
    closedReason: text('closed_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The UTC day the record entered tracking: when it was opened, or the starting line that opened it again. */
    openedOn: date('opened_on', { mode: 'string' })
      .notNull()
      .default(sql`(now() AT TIME ZONE 'UTC')::date`),
    /**
     * The earliest due date that makes the open record overdue: any (null) for a date a person set or Microsoft's
     * act-by date; otherwise the day it entered tracking, so a rollout start or GA month that passed before anyone
     * tracked the item is not "overdue" (overdue means ours: the date passed while the record was open).
     */
    overdueFrom: date('overdue_from', { mode: 'string' }).generatedAlwaysAs(
      sql`CASE WHEN due_source IN ('manual', 'action_required') THEN NULL ELSE opened_on END`,
    ),
    /** The last change a person made (null: as the sync opened it). */
    updatedAt: ts('updated_at'),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The item is removed (left its feed, expired): kept equal to items.is_removed by a trigger on items, so the queue
     * views can leave such items out without reading the items table.
     */
    itemRemoved: boolean('item_removed').notNull().default(false),
    /** The item's source (an item never changes source): a queue filtered by source is answered from the records. */
    source: itemSource('source').notNull(),
    /** Which triage rule set which field ({ owner: ruleId, state: ruleId, priority: ruleId }); a person's change takes its field out. */
    ruleFields: jsonb('rule_fields')
      .$type<Partial<Record<'owner' | 'state' | 'priority', number>>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    unique('triage_records_item_tenant_uq').on(t.itemId, t.tenantId).nullsNotDistinct(),
    // The queue views in their order (nearest due date, then priority), over the open records, whatever became of
    // their items (an open record stays in the queues until someone closes it):
    // a page is the first rows of an index, a total an index-only count. Their expressions are queueOrder's; the
    // priority column itself comes after them, since an index-only scan needs every column the query names, and the
    // order's expression names it (without it each row of a page was read from the table); the source, for a queue
    // filtered by source alone.
    index('triage_records_open_due_idx')
      .on(
        sql`${t.dueDate} ASC NULLS LAST`,
        sql`(CASE ${t.priority} WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END)`,
        sql`${t.id} DESC`,
        t.ownerId,
        t.tenantId,
        t.priority,
        t.source,
        t.overdueFrom,
      )
      .where(sql`${t.state} IN ('new', 'relevant', 'in_progress')`),
    index('triage_records_open_owner_idx')
      .on(
        t.ownerId,
        sql`${t.dueDate} ASC NULLS LAST`,
        sql`(CASE ${t.priority} WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END)`,
        sql`${t.id} DESC`,
        t.tenantId,
        t.priority,
        t.source,
        t.overdueFrom,
      )
      .where(sql`${t.state} IN ('new', 'relevant', 'in_progress') AND ${t.ownerId} IS NOT NULL`),
    // An item's open records with what the list reads of them (its due sort, a view's total): owner, tenant, source
    // and item_removed (the list outside a queue reads live items' records only) in the key make both index-only.
    index('triage_records_item_due_idx')
      .on(t.itemId, t.dueDate, t.ownerId, t.tenantId, t.source, t.itemRemoved, t.overdueFrom)
      .where(sql`${t.state} IN ('new', 'relevant', 'in_progress')`),
    // The list's due-date order over items: open records with a due date in (due date, item) order, so a page walks
    // the first rows and keeps each item's nearest; tenant and owner make the visibility and view tests index-only.
    index('triage_records_open_due_item_idx')
      .on(t.dueDate, t.itemId, t.tenantId, t.ownerId, t.itemRemoved, t.overdueFrom)
      .where(sql`${t.state} IN ('new', 'relevant', 'in_progress') AND ${t.dueDate} IS NOT NULL`),
    // One owner's open records for the list's "mine" view: its total (the distinct items, index-only with item,
    // tenant and source in the key; the queue's owner index above has no item) and its due-date walk, in (due date,
    // item) order like the index above without reading past every other owner's records.
    index('triage_records_open_owner_item_idx')
      .on(t.ownerId, t.dueDate, t.itemId, t.tenantId, t.source, t.overdueFrom)
      .where(sql`${t.state} IN ('new', 'relevant', 'in_progress') AND ${t.ownerId} IS NOT NULL`),
    index('triage_records_done_idx')
      .on(sql`${t.doneAt} DESC NULLS LAST`, sql`${t.id} DESC`, t.tenantId, t.source)
      .where(sql`${t.state} = 'done' AND ${t.closedReason} IS NULL AND NOT ${t.itemRemoved}`),
    index('triage_records_tenant_idx').on(t.tenantId),
  ],
);

/**
 * A comment on a record: plain text, `mentions` the users it names. Only its author edits or deletes it; each edit
 * (and the deletion) moves what it said before into `history`, so the conversation can be read as it was.
 */
export const triageComments = pgTable(
  'triage_comments',
  {
    id: serial('id').primaryKey(),
    recordId: integer('record_id')
      .notNull()
      .references(() => triageRecords.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    mentions: integer('mentions')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    history: jsonb('history')
      .$type<{ body: string; until: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    editedAt: ts('edited_at'),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('triage_comments_record_idx').on(t.recordId, t.id)],
);

/**
 * What a user is told about triage by mail: given an item (`assigned`), named in a comment (`mentioned`), an item of
 * theirs due in 7 days (`due_soon`) or past its due date (`overdue`). `dedupe_key` makes each event happen once
 * (a reminder once per record and due date); `sent_at` is set when it went out in a user's daily mail, `skipped`
 * when the user had switched that kind off.
 */
export const triageNotifications = pgTable(
  'triage_notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    recordId: integer('record_id')
      .notNull()
      .references(() => triageRecords.id, { onDelete: 'cascade' }),
    /** Who caused it (the assigner, the comment's author); null for reminders. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    commentId: integer('comment_id').references(() => triageComments.id, { onDelete: 'cascade' }),
    dedupeKey: text('dedupe_key').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    skipped: boolean('skipped').notNull().default(false),
  },
  (t) => [
    index('triage_notifications_pending_idx')
      .on(t.userId, t.id)
      .where(sql`${t.sentAt} IS NULL`),
    index('triage_notifications_user_sent_idx').on(t.userId, t.sentAt),
  ],
);

/** The kinds of triage mail a user switched off (one-click unsubscribe per kind). */
export const triageMailOptOuts = pgTable(
  'triage_mail_opt_outs',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * Admin → Triage rules: "when a new item matches this view, set owner / priority / state". `query` is a dashboard
 * view (the list's filters, as a saved search keeps them). Rules run in `position` order; a field is set by the first
 * rule that matches and sets it.
 */
export const triageRules = pgTable(
  'triage_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    query: jsonb('query').$type<Record<string, unknown>>().notNull(),
    setOwnerId: integer('set_owner_id').references(() => users.id, { onDelete: 'set null' }),
    setState: text('set_state'),
    setPriority: text('set_priority'),
    /**
     * The tracker a matching record is pushed to as a task. A foreign key to trackers (ON DELETE SET NULL),
     * declared in the migration: the trackers schema already refers to triage records.
     */
    createTaskIn: integer('create_task_in'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('triage_rules_position_idx').on(t.position)],
);

/**
 * How much triage was open, overdue and done on each day, per tenant (0: records of no tenant, the roadmap's among
 * them), as the triage job counted it that day (its last run of the day wins). Admin → Analytics draws it.
 */
export const triageDailyCounts = pgTable(
  'triage_daily_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    tenantKey: integer('tenant_key').notNull(),
    open: integer('open').notNull(),
    overdue: integer('overdue').notNull(),
    done: integer('done').notNull(),
    notRelevant: integer('not_relevant').notNull(),
    /**
     * The change-health sums of that day (contracts change-health.ts): the open records' priority weight, and the weight
     * of those overdue, unowned, imminent and untriaged. Null on days counted before the score existed.
     */
    weight: integer('weight'),
    weightOverdue: integer('weight_overdue'),
    weightUnowned: integer('weight_unowned'),
    weightImminent: integer('weight_imminent'),
    weightUntriaged: integer('weight_untriaged'),
  },
  (t) => [primaryKey({ columns: [t.day, t.tenantKey] })],
);
