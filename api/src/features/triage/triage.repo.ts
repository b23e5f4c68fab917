import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type TriageClosedReason, type TriageDueSource, type TriagePriority, type TriagePrioritySource, type TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities, tenants, triageComments, triageRecords, users, type ItemRow } from '../../db/schema/index.js';
import { type TenantScope } from '../items/item-query.js';
import { visibleTriageRecord } from './triage-views.js';
import { createTriageDefaultsRepo, defaultFields } from './triage-defaults.repo.js';
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

const tr = alias(triageRecords, 'tr');
const t = alias(tenants, 't');
const o = alias(users, 'o');
const u = alias(users, 'u');

const RECORD_FIELDS = {
  id: tr.id,
  itemId: tr.itemId,
  tenantId: tr.tenantId,
  tenantName: t.name,
  state: tr.state,
  ownerId: tr.ownerId,
  ownerEmail: o.email,
  ownerName: sql<string | null>`${personNameSql('o')}`,
  dueDate: sql<string | null>`to_char(tr.due_date, 'YYYY-MM-DD')`,
  dueSource: tr.dueSource,
  priority: tr.priority,
  prioritySource: tr.prioritySource,
  doneAt: tr.doneAt,
  updatedAt: tr.updatedAt,
  updatedByEmail: u.email,
  commentCount: sql<number>`(SELECT count(*)::int FROM triage_comments c WHERE c.record_id = tr.id AND c.deleted_at IS NULL)`,
  setByRules: sql<
    TriageRecordRow['setByRules']
  >`(SELECT coalesce(jsonb_agg(jsonb_build_object('field', f.key, 'ruleId', r.id, 'ruleName', r.name) ORDER BY f.key), '[]'::jsonb)
     FROM jsonb_each_text(tr.rule_fields) f JOIN triage_rules r ON r.id = f.value::int)`,
  closedReason: tr.closedReason,
  overdueFrom: sql<string | null>`to_char(tr.overdue_from, 'YYYY-MM-DD')`,
  startLine: sql<string | null>`to_char(coalesce(t.triage_start, ${GLOBAL_START_SQL}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  opened: sql<boolean>`true`,
};

/** The records with their tenant, owner and last changer, as a record's own read shows them. */
const selectRecords = (db: DbOrTx) =>
  db.select(RECORD_FIELDS).from(tr).leftJoin(t, eq(t.id, tr.tenantId)).leftJoin(o, eq(o.id, tr.ownerId)).leftJoin(u, eq(u.id, tr.updatedById));

/** The text columns hold the contract's values. */
const toRecordRow = (r: Awaited<ReturnType<typeof selectRecords>>[number]) => r as TriageRecordRow;

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
      const rows = await selectRecords(db)
        .where(and(eq(tr.itemId, itemId), visibleTriageRecord(scope)))
        .orderBy(sql`${tr.tenantId} IS NOT NULL`, t.name, tr.id);
      return rows.map(toRecordRow);
    },

    /** Records by id, in the order asked. */
    async recordsById(ids: readonly number[]): Promise<TriageRecordRow[]> {
      if (ids.length === 0) return [];
      const rows = await selectRecords(db).where(sql`${tr.id} = ANY(${sql.param([...ids])}::int[])`);
      const byId = new Map(rows.map((r) => [r.id, toRecordRow(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Locks the records (in id order, so two bulk changes never deadlock) for a change in this transaction. */
    async lock(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .select({ id: triageRecords.id })
        .from(triageRecords)
        .where(sql`${triageRecords.id} = ANY(${sql.param([...ids])}::int[])`)
        .orderBy(triageRecords.id)
        .for('update');
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
      const i = alias(items, 'i');
      const [d] = await db
        .select({ ...defaultFields(sql`NULL`), startLine: sql<string | null>`to_char(coalesce(${GLOBAL_START_SQL}, ${now}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')` })
        .from(i)
        .where(eq(i.id, item.id));
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
        dueDate: d.dueDate,
        dueSource: d.dueSource,
        priority: d.priority,
        prioritySource: d.prioritySource,
        doneAt: null,
        updatedAt: null,
        updatedByEmail: null,
        commentCount: 0,
        setByRules: [],
        closedReason: null,
        overdueFrom: null,
        startLine: d.startLine,
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
      return db
        .select({ id: t.id, name: t.name, products: t.licensedProducts })
        .from(t)
        .where(and(isNull(t.removedAt), visible))
        .orderBy(t.name);
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
      const rows = await db
        .select({
          itemId: tr.itemId,
          tenantId: tr.tenantId,
          tenantName: t.name,
          state: tr.state,
          ownerId: tr.ownerId,
          ownerName: sql<string | null>`${personNameSql('o')}`,
          dueDate: sql<string | null>`to_char(tr.due_date, 'YYYY-MM-DD')`,
          priority: tr.priority,
          closedReason: tr.closedReason,
          overdueFrom: sql<string | null>`to_char(tr.overdue_from, 'YYYY-MM-DD')`,
        })
        .from(tr)
        .leftJoin(t, eq(t.id, tr.tenantId))
        .leftJoin(o, eq(o.id, tr.ownerId))
        .where(and(sql`${tr.itemId} = ANY(${sql.param([...itemIds])}::int[])`, visibleTriageRecord(scope)))
        .orderBy(tr.itemId, sql`${tr.tenantId} IS NOT NULL`, t.name, tr.id);
      for (const row of rows as TriageBrief[]) out.set(row.itemId, [...(out.get(row.itemId) ?? []), row]);
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
