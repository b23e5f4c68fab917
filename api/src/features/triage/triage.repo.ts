import { and, eq, inArray, sql } from 'drizzle-orm';
import { type TriageClosedReason, type TriageDueSource, type TriagePriority, type TriagePrioritySource, type TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities, triageComments, triageRecords, type ItemRow } from '../../db/schema/index.js';
import { type TenantScope } from '../items/item-query.js';
import { visibleTriageRecord } from './triage-views.js';
import { createTriageDefaultsRepo, DEFAULT_DUE, DEFAULT_DUE_SOURCE, DEFAULT_PRIORITY_SOURCE, PRIORITY_OF_SOURCE } from './triage-defaults.repo.js';
import { createTriageQueueRepo } from './triage-queue.repo.js';
import { GLOBAL_START_SQL } from './triage-start.repo.js';
import { createTriagePeopleRepo, personNameSql } from './triage-users.repo.js';

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

/** One field a change moved: what it was and what it became (the activity log's before → after). */
export interface FieldChange {
  field: 'state' | 'owner' | 'dueDate' | 'priority';
  before: string | null;
  after: string | null;
}

export function createTriageRepo(db: DbOrTx) {
  return {
    ...createTriageDefaultsRepo(db),
    ...createTriagePeopleRepo(db),
    ...createTriageQueueRepo(db),

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
