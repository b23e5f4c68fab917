import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  type TriageClosedReason,
  type TriageDueSource,
  type TriagePriority,
  type TriagePrioritySource,
  type TriageState,
  type TriageView,
} from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities, triageComments, triageRecords, users, type ItemRow } from '../../db/schema/index.js';
import {
  hasItemFilters,
  listsRemovedItems,
  overdueOn,
  recordSourceCondition,
  itemWhere,
  queueOrder,
  searchPlan,
  triageViewCondition,
  visibleTriageRecord,
  type ItemWhereFilters,
  type TenantScope,
} from '../items/item-query.js';
import { personNameSql } from './triage-users.repo.js';
import { usersSeeingTenant, userSeesTenant } from './triage-audience.repo.js';
import { createTriageStartRepo, GLOBAL_START_SQL, OPEN_UPCOMING_ROADMAP_SQL, pastAt, UPCOMING_ROADMAP, WINDOW_DAYS_SQL } from './triage-start.repo.js';

/**
 * The defaults of a record, read from its item `i` (one rule, used when the sync opens a record and whenever the
 * item changes):
 * - due date: Microsoft's act-by date (actionRequiredByDateTime, as a UTC day), else the start of the post's rollout
 *   window, else the roadmap item's GA month (both are items.timing_start), else none;
 * - priority: High for a post Microsoft marks high severity, a major change with an act-by date, or a service
 *   incident; Medium for an act-by date or a major change alone; Low for an advisory or an item without any of these.
 */
const DEFAULT_DUE = sql`CASE WHEN i.action_required_by IS NOT NULL THEN (i.action_required_by AT TIME ZONE 'UTC')::date ELSE i.timing_start END`;
const DEFAULT_DUE_SOURCE = sql`CASE WHEN i.action_required_by IS NOT NULL THEN 'action_required'
  WHEN i.timing_start IS NOT NULL THEN (CASE WHEN i.source = 'roadmap' THEN 'roadmap_ga' ELSE 'rollout_start' END)
  ELSE 'none' END`;
const DEFAULT_PRIORITY_SOURCE = sql`CASE
  WHEN i.source = 'health' THEN (CASE WHEN lower(i.category) = 'incident' THEN 'incident' ELSE 'advisory' END)
  WHEN i.source = 'roadmap' THEN 'no_signal'
  WHEN lower(coalesce(i.severity, '')) = 'high' THEN 'high_severity'
  WHEN i.action_required_by IS NOT NULL AND i.is_major_change THEN 'action_required_major'
  WHEN i.action_required_by IS NOT NULL THEN 'action_required'
  WHEN i.is_major_change THEN 'major_change'
  ELSE 'no_signal' END`;
/** The priority each default source gives. */
const PRIORITY_OF_SOURCE = (source: SQL) => sql`CASE ${source}
  WHEN 'high_severity' THEN 'high' WHEN 'action_required_major' THEN 'high' WHEN 'incident' THEN 'high'
  WHEN 'action_required' THEN 'medium' WHEN 'major_change' THEN 'medium' ELSE 'low' END`;

/** Who set the fields a person cannot have set by default. */
const MANUAL_DUE = sql`'manual'`;
const KEPT_PRIORITY_SOURCES = sql`('manual', 'rule')`;

export interface TriageRecordRow {
  id: number;
  itemId: number;
  tenantId: number | null;
  tenantName: string | null;
  state: TriageState;
  ownerId: number | null;
  ownerEmail: string | null;
  ownerName: string | null;
  dueDate: string | null;
  dueSource: TriageDueSource;
  priority: TriagePriority;
  prioritySource: TriagePrioritySource;
  doneAt: Date | null;
  updatedAt: Date | null;
  updatedByEmail: string | null;
  commentCount: number;
  /** The fields a triage rule set (and which rule), of rules that still exist. */
  setByRules: { field: 'owner' | 'state' | 'priority'; ruleId: number; ruleName: string }[];
  closedReason: TriageClosedReason | null;
  /** The earliest due date that makes the open record overdue (null: any). */
  overdueFrom: string | null;
  /** The record's starting line (its tenant's, or that of the records of no tenant), YYYY-MM-DD. */
  startLine: string | null;
  /** false: no record is stored (a roadmap item nobody opened); the fields are the defaults one would start with. */
  opened: boolean;
}

export interface TriagePersonRow {
  id: number;
  email: string;
  name: string;
}

/** A user's name as the triage screens show it: first and last name, else the e-mail address. */
export const personName = (u: { firstName: string | null; lastName: string | null; email: string }) =>
  [u.firstName, u.lastName].filter((p) => p?.trim()).join(' ') || u.email;

const RECORD_COLUMNS = sql`tr.id, tr.item_id AS "itemId", tr.tenant_id AS "tenantId", t.name AS "tenantName", tr.state,
  tr.owner_id AS "ownerId", o.email AS "ownerEmail",
  ${personNameSql('o')} AS "ownerName",
  to_char(tr.due_date, 'YYYY-MM-DD') AS "dueDate", tr.due_source AS "dueSource", tr.priority, tr.priority_source AS "prioritySource",
  tr.done_at AS "doneAt", tr.updated_at AS "updatedAt", u.email AS "updatedByEmail",
  (SELECT count(*)::int FROM triage_comments c WHERE c.record_id = tr.id AND c.deleted_at IS NULL) AS "commentCount",
  (SELECT coalesce(jsonb_agg(jsonb_build_object('field', f.key, 'ruleId', r.id, 'ruleName', r.name) ORDER BY f.key), '[]'::jsonb)
     FROM jsonb_each_text(tr.rule_fields) f JOIN triage_rules r ON r.id = f.value::int) AS "setByRules",
  tr.closed_reason AS "closedReason", to_char(tr.overdue_from, 'YYYY-MM-DD') AS "overdueFrom",
  to_char(coalesce(t.triage_start, ${GLOBAL_START_SQL}) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "startLine", true AS opened`;
const RECORD_JOINS = sql`LEFT JOIN tenants t ON t.id = tr.tenant_id LEFT JOIN users o ON o.id = tr.owner_id LEFT JOIN users u ON u.id = tr.updated_by_id`;

function toRecordRow(r: Record<string, unknown>): TriageRecordRow {
  return {
    ...(r as unknown as TriageRecordRow),
    doneAt: r.doneAt ? new Date(r.doneAt as string) : null,
    updatedAt: r.updatedAt ? new Date(r.updatedAt as string) : null,
  };
}

/** A record as the list and the export show it. */
export interface TriageBrief extends Record<string, unknown> {
  itemId: number;
  tenantId: number | null;
  tenantName: string | null;
  state: TriageState;
  ownerId: number | null;
  ownerName: string | null;
  dueDate: string | null;
  priority: TriagePriority;
  closedReason: TriageClosedReason | null;
  /** The earliest due date that makes the open record overdue (null: any); contracts' triageOverdue. */
  overdueFrom: string | null;
}

/** Which items a statement covers: some by id, or every item. */
export type ItemSet = { itemIds: readonly number[] } | 'all';
const itemsIn = (which: ItemSet, column: SQL) => (which === 'all' ? sql`true` : sql`${column} = ANY(${sql.param([...which.itemIds])}::int[])`);

/** One field a change moved: what it was and what it became (the activity log's before → after). */
export interface FieldChange {
  field: 'state' | 'owner' | 'dueDate' | 'priority';
  before: string | null;
  after: string | null;
}

/** A page of a queue view: the list's filters on the records' items, the view, whose queue, and which page. */
export interface QueueRequest {
  filters: ItemWhereFilters;
  view: TriageView;
  userId: number;
  now: Date;
  page: number;
  limit: number;
}

/**
 * The statements of one page of a queue view and of its total, in queueOrder. Without list filters but sources the
 * records alone answer (their own item_removed, tenant and source say whether the caller may see them and want them),
 * so a page is the first rows of a queue index and a total an index-only count; with other filters the records are
 * joined to their items.
 */
export function queueSql(q: QueueRequest): { page: SQL; count: SQL } {
  const records = sql`${visibleTriageRecord(q.filters.tenantScope)} AND ${triageViewCondition(q.view, q.userId, q.now, q.filters.includeRemoved)} AND ${recordSourceCondition(q.filters)}`;
  // An open view lists its records' items whatever became of them (triageViewCondition); the list's filters apply.
  const itemFilters = { ...q.filters, includeRemoved: listsRemovedItems({ ...q.filters, triage: q.view }) };
  const from = hasItemFilters(q.filters)
    ? sql`triage_records tr JOIN items ON items.id = tr.item_id WHERE ${itemWhere(itemFilters, q.now, searchPlan(q.filters.search))} AND ${records}`
    : sql`triage_records tr WHERE ${records}`;
  return {
    page: sql`SELECT tr.id FROM ${from} ORDER BY ${queueOrder(q.view)} LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
    count: sql`SELECT count(*)::int AS n FROM ${from}`,
  };
}

export function createTriageRepo(db: DbOrTx) {
  return {
    /**
     * Opens the records the items lack: one per tenant that received a post or issue, one per item for roadmap items
     * and items of no tenant, each with its defaults. An item's own record is handed to its first tenant when tenants
     * arrive, so triage done before is kept. Returns the ids of the records opened.
     *
     * `how` 'sync' (a sync, the start): posts and issues always, roadmap items only when the setting opens every
     * upcoming one; 'rule' (a rule matched the items): any item. Either way a record of an item already past at its
     * starting line is stored closed before tracking (triage-start.repo.ts). 'request' (a person's "Triage this", a
     * triaged post announcing the item): any item, open.
     */
    async openRecords(which: ItemSet, now: Date, how: 'sync' | 'rule' | 'request' = 'sync'): Promise<number[]> {
      if (which !== 'all' && which.itemIds.length === 0) return [];
      await createTriageStartRepo(db).ensureGlobalStart(now);
      await db.execute(sql`
        UPDATE triage_records tr SET tenant_id = (SELECT min(it.tenant_id) FROM item_tenants it WHERE it.item_id = tr.item_id)
        WHERE tr.tenant_id IS NULL AND ${itemsIn(which, sql`tr.item_id`)}
          AND EXISTS (SELECT 1 FROM item_tenants it WHERE it.item_id = tr.item_id)
          AND NOT EXISTS (SELECT 1 FROM triage_records o WHERE o.item_id = tr.item_id AND o.tenant_id IS NOT NULL)`);
      const requested = how === 'request';
      const past = requested ? sql`false` : pastAt(sql`coalesce(t.triage_start, ${GLOBAL_START_SQL})`, WINDOW_DAYS_SQL);
      const roadmapOpens = how === 'sync' ? sql`(${OPEN_UPCOMING_ROADMAP_SQL} AND ${UPCOMING_ROADMAP})` : sql`true`;
      const { rows } = await db.execute<{ id: number }>(sql`
        INSERT INTO triage_records (item_id, tenant_id, due_date, due_source, priority, priority_source, item_removed, source,
          state, closed_reason, opened_on)
        SELECT s.item_id, s.tenant_id, ${DEFAULT_DUE}, ${DEFAULT_DUE_SOURCE}, ${PRIORITY_OF_SOURCE(DEFAULT_PRIORITY_SOURCE)}, ${DEFAULT_PRIORITY_SOURCE}, i.is_removed, i.source,
          CASE WHEN p.past THEN 'done' ELSE 'new' END, CASE WHEN p.past THEN 'before_tracking' END, ${now.toISOString().slice(0, 10)}::date
        FROM (
          SELECT it.item_id, it.tenant_id FROM item_tenants it WHERE ${itemsIn(which, sql`it.item_id`)}
          UNION ALL
          SELECT i.id, NULL::int FROM items i
          WHERE ${itemsIn(which, sql`i.id`)} AND NOT EXISTS (SELECT 1 FROM item_tenants it WHERE it.item_id = i.id)
        ) s
        JOIN items i ON i.id = s.item_id
        LEFT JOIN tenants t ON t.id = s.tenant_id
        CROSS JOIN LATERAL (SELECT ${past} AS past) p
        WHERE NOT EXISTS (SELECT 1 FROM triage_records tr WHERE tr.item_id = s.item_id AND tr.tenant_id IS NOT DISTINCT FROM s.tenant_id)
          AND (i.source <> 'roadmap' OR ${roadmapOpens})
        ON CONFLICT ON CONSTRAINT triage_records_item_tenant_uq DO NOTHING
        RETURNING id`);
      return rows.map((r) => Number(r.id));
    },

    /**
     * A post that is triaged (its record Relevant or In progress) opens the records of the roadmap items it announces
     * (message_roadmap_links) that have none. Returns the ids of the records opened.
     */
    async openAnnounced(recordIds: readonly number[], now: Date): Promise<number[]> {
      if (recordIds.length === 0) return [];
      const { rows } = await db.execute<{ id: number }>(sql`
        SELECT DISTINCT r.id FROM triage_records tr
        JOIN message_roadmap_links l ON l.message_item_id = tr.item_id
        JOIN items r ON r.source = 'roadmap' AND r.external_id = l.roadmap_external_id
        WHERE tr.id = ANY(${sql.param([...recordIds])}::int[]) AND tr.state IN ('relevant', 'in_progress')
          AND NOT EXISTS (SELECT 1 FROM triage_records x WHERE x.item_id = r.id)`);
      return this.openRecords({ itemIds: rows.map((r) => Number(r.id)) }, now, 'request');
    },

    /** The rule version the stored defaults were last brought up to date with everywhere (null: never). */
    async defaultsVersion(): Promise<string | null> {
      const { rows } = await db.execute<{ value: unknown }>(sql`SELECT value FROM app_state WHERE key = 'triage-defaults-version'`);
      return typeof rows[0]?.value === 'string' ? rows[0].value : null;
    },

    async setDefaultsVersion(version: string, now: Date): Promise<void> {
      await db.execute(sql`
        INSERT INTO app_state (key, value, updated_at) VALUES ('triage-defaults-version', ${JSON.stringify(version)}::jsonb, ${now})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
    },

    /** Brings the defaults of the items' records up to date with the items (a due date or priority a person or rule set stays). */
    async refreshDefaults(which: ItemSet): Promise<void> {
      if (which !== 'all' && which.itemIds.length === 0) return;
      await db.execute(sql`
        UPDATE triage_records tr SET due_date = d.due, due_source = d.source
        FROM (SELECT i.id, ${DEFAULT_DUE} AS due, ${DEFAULT_DUE_SOURCE} AS source FROM items i WHERE ${itemsIn(which, sql`i.id`)}) d
        WHERE tr.item_id = d.id AND tr.due_source <> ${MANUAL_DUE}
          AND (tr.due_date IS DISTINCT FROM d.due OR tr.due_source <> d.source)`);
      await db.execute(sql`
        UPDATE triage_records tr SET priority = ${PRIORITY_OF_SOURCE(sql`d.source`)}, priority_source = d.source
        FROM (SELECT i.id, ${DEFAULT_PRIORITY_SOURCE} AS source FROM items i WHERE ${itemsIn(which, sql`i.id`)}) d
        WHERE tr.item_id = d.id AND tr.priority_source NOT IN ${KEPT_PRIORITY_SOURCES} AND tr.priority_source <> d.source`);
    },

    /** The item's records the caller may see, its own record first, then by tenant name. */
    async recordsOf(itemId: number, scope: TenantScope | undefined): Promise<TriageRecordRow[]> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT ${RECORD_COLUMNS} FROM triage_records tr ${RECORD_JOINS}
        WHERE tr.item_id = ${itemId} AND ${visibleTriageRecord(scope)}
        ORDER BY tr.tenant_id IS NOT NULL, t.name, tr.id`);
      return rows.map(toRecordRow);
    },

    /** Records by id, in the order asked. */
    async recordsById(ids: readonly number[]): Promise<TriageRecordRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT ${RECORD_COLUMNS} FROM triage_records tr ${RECORD_JOINS} WHERE tr.id = ANY(${sql.param([...ids])}::int[])`);
      const byId = new Map(rows.map((r) => [Number(r.id), toRecordRow(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Locks the records (in id order, so two bulk changes never deadlock) for a change in this transaction. */
    async lock(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`SELECT id FROM triage_records WHERE id = ANY(${sql.param([...ids])}::int[]) ORDER BY id FOR UPDATE`);
    },

    /** Writes a change a person made. */
    async update(
      id: number,
      set: Partial<{
        state: TriageState;
        ownerId: number | null;
        dueDate: string | null;
        dueSource: TriageDueSource;
        priority: TriagePriority;
        prioritySource: TriagePrioritySource;
        doneAt: Date | null;
        openedOn: string;
      }>,
      by: number,
      now: Date,
    ): Promise<void> {
      // A field a person sets is theirs: no rule is said to have set it any more.
      const taken = [
        set.ownerId !== undefined ? 'owner' : null,
        set.state !== undefined ? 'state' : null,
        set.priority !== undefined ? 'priority' : null,
      ].filter((k): k is string => k !== null);
      await db
        .update(triageRecords)
        .set({
          ...set,
          // A state a person sets is theirs: a record closed before tracking that they open or close is no longer that.
          ...(set.state !== undefined ? { closedReason: null } : {}),
          updatedAt: now,
          updatedById: by,
          ruleFields: sql`${triageRecords.ruleFields} - ${sql.param(taken)}::text[]`,
        })
        .where(eq(triageRecords.id, id));
    },

    /** A record's due date and priority as its defaults give them now (what `reset` restores). */
    async defaultsOf(
      id: number,
    ): Promise<{ dueDate: string | null; dueSource: TriageDueSource; priority: TriagePriority; prioritySource: TriagePrioritySource }> {
      const { rows } = await db.execute<{
        dueDate: string | null;
        dueSource: TriageDueSource;
        priority: TriagePriority;
        prioritySource: TriagePrioritySource;
      }>(sql`
        SELECT to_char(${DEFAULT_DUE}, 'YYYY-MM-DD') AS "dueDate", ${DEFAULT_DUE_SOURCE} AS "dueSource",
          ${PRIORITY_OF_SOURCE(DEFAULT_PRIORITY_SOURCE)} AS priority, ${DEFAULT_PRIORITY_SOURCE} AS "prioritySource"
        FROM triage_records tr JOIN items i ON i.id = tr.item_id WHERE tr.id = ${id}`);
      const row = rows[0];
      if (!row) throw new Error(`triage: no record ${id}`);
      return row;
    },

    /**
     * The record an item would start with, unstored (a roadmap item nobody opened): New, no owner, its defaults.
     */
    async unopened(item: ItemRow, now: Date): Promise<TriageRecordRow> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT to_char(${DEFAULT_DUE}, 'YYYY-MM-DD') AS "dueDate", ${DEFAULT_DUE_SOURCE} AS "dueSource",
          ${PRIORITY_OF_SOURCE(DEFAULT_PRIORITY_SOURCE)} AS priority, ${DEFAULT_PRIORITY_SOURCE} AS "prioritySource",
          to_char(coalesce(${GLOBAL_START_SQL}, ${now}) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "startLine"
        FROM items i WHERE i.id = ${item.id}`);
      const d = rows[0];
      if (!d) throw new Error(`triage: no item ${item.id}`);
      return {
        id: 0,
        itemId: item.id,
        tenantId: null,
        tenantName: null,
        state: 'new',
        ownerId: null,
        ownerEmail: null,
        ownerName: null,
        dueDate: d.dueDate as string | null,
        dueSource: d.dueSource as TriageDueSource,
        priority: d.priority as TriagePriority,
        prioritySource: d.prioritySource as TriagePrioritySource,
        doneAt: null,
        updatedAt: null,
        updatedByEmail: null,
        commentCount: 0,
        setByRules: [],
        closedReason: null,
        overdueFrom: null,
        startLine: d.startLine as string | null,
        opened: false,
      };
    },

    /** One activity-log line per change, written in the change's transaction. */
    async logChanges(
      entries: {
        item: ItemRow;
        itemType: 'roadmap' | 'message_center' | 'service_health';
        tenant: { id: number; name: string } | null;
        actionType: string;
        details: Record<string, unknown>;
      }[],
      by: { id: number; email: string },
      now: Date,
    ): Promise<void> {
      if (entries.length === 0) return;
      await db.insert(moderatorActivities).values(
        entries.map((e) => ({
          userId: by.id,
          userEmail: by.email,
          actionType: e.actionType,
          itemType: e.itemType,
          itemId: e.item.externalId,
          itemTitle: e.item.title,
          details: { ...(e.tenant ? { tenant: e.tenant } : {}), ...e.details },
          recordedBy: 'server',
          createdAt: now,
        })),
      );
    },

    /** The tenants the caller may see, with the products each licenses (null: not read). */
    async tenantLicences(scope: TenantScope | undefined): Promise<{ id: number; name: string; products: string[] | null }[]> {
      const visible =
        scope === 'all' ? sql`true` : sql`(t.visibility = 'public' OR t.id = ANY(${sql.param(scope?.granted.length ? [...scope.granted] : [0])}::integer[]))`;
      const { rows } = await db.execute<{ id: number; name: string; products: string[] | null }>(
        sql`SELECT t.id, t.name, t.licensed_products AS products FROM tenants t WHERE t.removed_at IS NULL AND ${visible} ORDER BY t.name`,
      );
      return rows.map((r) => ({ id: Number(r.id), name: r.name, products: r.products }));
    },

    /** The people of a record: its owner, its commenters, and every moderator and admin. */
    async peopleOfRecord(recordId: number): Promise<Set<number>> {
      const { rows } = await db.execute<{ id: number }>(sql`
        SELECT owner_id AS id FROM triage_records WHERE id = ${recordId} AND owner_id IS NOT NULL
        UNION SELECT author_id FROM triage_comments WHERE record_id = ${recordId} AND author_id IS NOT NULL
        UNION SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name IN ('Admin', 'Moderator')`);
      return new Set(rows.map((r) => Number(r.id)));
    },

    /** The users with these ids that exist. */
    async existingUsers(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Set(rows.map((r) => r.id));
    },

    /** Of these users, those who may see the tenant's records (null: a record of no tenant, everyone). */
    usersSeeing(tenantId: number | null, ids: readonly number[]): Promise<Set<number>> {
      return usersSeeingTenant(db, tenantId, ids);
    },

    async person(id: number): Promise<TriagePersonRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row ? { id: row.id, email: row.email, name: personName(row) } : null;
    },

    /**
     * Users whose name or e-mail contains the text (case-insensitive), by name, at most `limit`; with `tenantId`, only
     * those who may see that tenant's records (the people a record of it may be given to).
     */
    async people(search: string | undefined, limit: number, tenantId?: number): Promise<TriagePersonRow[]> {
      const text = search?.trim().toLowerCase();
      const pattern = text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const matches = pattern
        ? sql`(lower(${users.email}) LIKE ${pattern} OR lower(concat_ws(' ', ${users.firstName}, ${users.lastName})) LIKE ${pattern})`
        : undefined;
      const seeing = tenantId !== undefined ? userSeesTenant(sql`${users.id}`, sql`${tenantId}::int`) : undefined;
      const rows = await db
        .select()
        .from(users)
        .where(and(matches, seeing))
        .orderBy(sql`lower(coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.email}))`)
        .limit(limit);
      return rows.map((r) => ({ id: r.id, email: r.email, name: personName(r) }));
    },

    /** Users by e-mail address (lower-case), for the mentions of a comment. */
    async usersByEmail(emails: readonly string[]): Promise<TriagePersonRow[]> {
      if (emails.length === 0) return [];
      const rows = await db
        .select()
        .from(users)
        .where(inArray(users.email, [...emails]));
      return rows.map((r) => ({ id: r.id, email: r.email, name: personName(r) }));
    },

    async peopleById(ids: readonly number[]): Promise<Map<number, TriagePersonRow>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select()
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Map(rows.map((r) => [r.id, { id: r.id, email: r.email, name: personName(r) }]));
    },

    /**
     * One page of a queue view: the records (with the list's filters on their items) in view, nearest due date first
     * (none last), then higher priority, then newest item; and how many there are.
     */
    async queue(q: QueueRequest): Promise<{ recordIds: number[]; total: number }> {
      const { page, count } = queueSql(q);
      const [pageRows, countRows] = await Promise.all([db.execute<{ id: number }>(page), db.execute<{ n: number }>(count)]);
      return { recordIds: pageRows.rows.map((r) => Number(r.id)), total: Number(countRows.rows[0]?.n ?? 0) };
    },

    /** The caller's open records (of items still listed) and how many of them are overdue. */
    async counts(userId: number, scope: TenantScope | undefined, now: Date): Promise<{ open: number; overdue: number }> {
      const today = now.toISOString().slice(0, 10);
      const { rows } = await db.execute<{ open: number; overdue: number }>(sql`
        SELECT count(*)::int AS open, count(*) FILTER (WHERE ${overdueOn(today)})::int AS overdue
        FROM triage_records tr WHERE ${triageViewCondition('mine', userId, now)} AND ${visibleTriageRecord(scope)}`);
      return { open: Number(rows[0]?.open ?? 0), overdue: Number(rows[0]?.overdue ?? 0) };
    },

    /** The triage of the items of a list page, by item id (records the caller may see, its own record first). */
    /**
     * What the list and the export show of the items' records the caller may see (state, owner, due date, priority,
     * tenant), by item id: each item's own record first, then by tenant name. Not the comment counts or rule names a
     * record's own read has.
     */
    async ofItems(itemIds: readonly number[], scope: TenantScope | undefined): Promise<Map<number, TriageBrief[]>> {
      const out = new Map<number, TriageBrief[]>();
      if (itemIds.length === 0) return out;
      const { rows } = await db.execute<TriageBrief>(sql`
        SELECT tr.item_id AS "itemId", tr.tenant_id AS "tenantId", t.name AS "tenantName", tr.state, tr.owner_id AS "ownerId",
          ${personNameSql('o')} AS "ownerName", to_char(tr.due_date, 'YYYY-MM-DD') AS "dueDate", tr.priority,
          tr.closed_reason AS "closedReason", to_char(tr.overdue_from, 'YYYY-MM-DD') AS "overdueFrom"
        FROM triage_records tr LEFT JOIN tenants t ON t.id = tr.tenant_id LEFT JOIN users o ON o.id = tr.owner_id
        WHERE tr.item_id = ANY(${sql.param([...itemIds])}::int[]) AND ${visibleTriageRecord(scope)}
        ORDER BY tr.item_id, tr.tenant_id IS NOT NULL, t.name, tr.id`);
      for (const row of rows) out.set(row.itemId, [...(out.get(row.itemId) ?? []), row]);
      return out;
    },

    async itemsById(ids: readonly number[]): Promise<Map<number, ItemRow>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select()
        .from(items)
        .where(inArray(items.id, [...ids]));
      return new Map(rows.map((r) => [r.id, r]));
    },

    async comments(recordId: number) {
      return db.select().from(triageComments).where(eq(triageComments.recordId, recordId)).orderBy(triageComments.id);
    },

    async comment(recordId: number, commentId: number) {
      const [row] = await db
        .select()
        .from(triageComments)
        .where(and(eq(triageComments.recordId, recordId), eq(triageComments.id, commentId)))
        .for('update')
        .limit(1);
      return row ?? null;
    },

    async addComment(recordId: number, authorId: number, body: string, mentions: number[], now: Date) {
      const [row] = await db.insert(triageComments).values({ recordId, authorId, body, mentions, createdAt: now }).returning();
      if (!row) throw new Error('triage: comment not written');
      return row;
    },

    async saveComment(id: number, set: Partial<typeof triageComments.$inferInsert>) {
      const [row] = await db.update(triageComments).set(set).where(eq(triageComments.id, id)).returning();
      if (!row) throw new Error(`triage: no comment ${id}`);
      return row;
    },
  };
}

export type TriageRepo = ReturnType<typeof createTriageRepo>;
export type TriageCommentRow = Awaited<ReturnType<TriageRepo['comments']>>[number];
