import { and, eq, exists, isNotNull, isNull, min, ne, notExists, notInArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TriageDueSource, TriagePriority, TriagePrioritySource } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { appState, items, itemTenants, messageRoadmapLinks, triageRecords } from '../../db/schema/index.js';
import { KEPT_PRIORITY_SOURCES, movedPrioritySql, relevanceStepSql } from './triage-relevance.js';
import {
  createTriageStartRepo,
  GLOBAL_START_SQL,
  OPEN_UPCOMING_ROADMAP_SQL,
  pastAt,
  setAppState,
  UPCOMING_ROADMAP,
  WINDOW_DAYS_SQL,
} from './triage-start.repo.js';

/**
 * The defaults of a record, read from its item `i` (one rule, used when the sync opens a record and whenever the
 * item changes):
 * - due date: Microsoft's act-by date (actionRequiredByDateTime, as a UTC day), else the start of the post's rollout
 *   window, else the roadmap item's GA month (both are items.timing_start), else none;
 * - priority: High for a post Microsoft marks high severity, a major change with an act-by date, or a service
 *   incident; Medium for an act-by date or a major change alone; Low for an advisory or an item without any of these;
 *   then moved one step by the item's relevance to the record's tenant (triage-relevance.ts): up for High, down for Low.
 */
export const DEFAULT_DUE = sql`CASE WHEN i.action_required_by IS NOT NULL THEN (i.action_required_by AT TIME ZONE 'UTC')::date ELSE i.timing_start END`;
export const DEFAULT_DUE_SOURCE = sql`CASE WHEN i.action_required_by IS NOT NULL THEN 'action_required'
  WHEN i.timing_start IS NOT NULL THEN (CASE WHEN i.source = 'roadmap' THEN 'roadmap_ga' ELSE 'rollout_start' END)
  ELSE 'none' END`;
export const DEFAULT_PRIORITY_SOURCE = sql`CASE
  WHEN i.source = 'health' THEN (CASE WHEN lower(i.category) = 'incident' THEN 'incident' ELSE 'advisory' END)
  WHEN i.source = 'roadmap' THEN 'no_signal'
  WHEN lower(coalesce(i.severity, '')) = 'high' THEN 'high_severity'
  WHEN i.action_required_by IS NOT NULL AND i.is_major_change THEN 'action_required_major'
  WHEN i.action_required_by IS NOT NULL THEN 'action_required'
  WHEN i.is_major_change THEN 'major_change'
  ELSE 'no_signal' END`;
/** The priority each default source gives. */
export const PRIORITY_OF_SOURCE = (source: SQL) => sql`CASE ${source}
  WHEN 'high_severity' THEN 'high' WHEN 'action_required_major' THEN 'high' WHEN 'incident' THEN 'high'
  WHEN 'action_required' THEN 'medium' WHEN 'major_change' THEN 'medium' ELSE 'low' END`;

/** The default priority of item `i`'s record of tenant `tenant` (a column, or NULL for a record of no tenant): its source's, moved by relevance. */
export const DEFAULT_PRIORITY = (tenant: SQL) => movedPrioritySql(PRIORITY_OF_SOURCE(DEFAULT_PRIORITY_SOURCE), relevanceStepSql(sql`i.id`, tenant));

/** An item `i`'s defaults as select fields for its record of tenant `tenant` (a record's before anyone changed it). */
export const defaultFields = (tenant: SQL) => ({
  dueDate: sql<string | null>`to_char(${DEFAULT_DUE}, 'YYYY-MM-DD')`,
  dueSource: sql<TriageDueSource>`${DEFAULT_DUE_SOURCE}`,
  priority: sql<TriagePriority>`${DEFAULT_PRIORITY(tenant)}`,
  prioritySource: sql<TriagePrioritySource>`${DEFAULT_PRIORITY_SOURCE}`,
});

/** Who set the due dates a person cannot have set by default. */
const MANUAL_DUE = 'manual';
const VERSION_KEY = 'triage-defaults-version';

/** Which items a statement covers: some by id, or every item. */
export type ItemSet = { itemIds: readonly number[] } | 'all';
const itemsIn = (which: ItemSet, column: SQLWrapper) => (which === 'all' ? sql`true` : sql`${column} = ANY(${sql.param([...which.itemIds])}::int[])`);

const tr = alias(triageRecords, 'tr');
const i = alias(items, 'i');
const it = alias(itemTenants, 'it');

/** Opening the records items lack, and keeping their defaults (due date, priority) in step with their items. */
export function createTriageDefaultsRepo(db: DbOrTx) {
  const repo = {
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
      // An item's own record goes to its first tenant when tenants arrive and none of them has a record yet.
      const other = alias(triageRecords, 'o');
      const firstTenant = db
        .select({ tenantId: min(it.tenantId) })
        .from(it)
        .where(eq(it.itemId, tr.itemId));
      const itemTenantsOf = db.select({ tenantId: it.tenantId }).from(it).where(eq(it.itemId, tr.itemId));
      const tenantRecordsOf = db
        .select({ id: other.id })
        .from(other)
        .where(and(eq(other.itemId, tr.itemId), isNotNull(other.tenantId)));
      await db
        .update(tr)
        .set({ tenantId: sql`(${firstTenant})` })
        .where(and(isNull(tr.tenantId), itemsIn(which, tr.itemId), exists(itemTenantsOf), notExists(tenantRecordsOf)));
      const requested = how === 'request';
      const past = requested ? sql`false` : pastAt(sql`coalesce(t.triage_start, ${GLOBAL_START_SQL})`, WINDOW_DAYS_SQL);
      const roadmapOpens = how === 'sync' ? sql`(${OPEN_UPCOMING_ROADMAP_SQL} AND ${UPCOMING_ROADMAP})` : sql`true`;
      // raw: INSERT … SELECT of some columns from a UNION ALL with a lateral join; drizzle's insert().select() must
      // give every column of the table.
      const { rows } = await db.execute<{ id: number }>(sql`
        INSERT INTO triage_records (item_id, tenant_id, due_date, due_source, priority, priority_source, item_removed, source,
          state, closed_reason, opened_on)
        SELECT s.item_id, s.tenant_id, ${DEFAULT_DUE}, ${DEFAULT_DUE_SOURCE}, ${DEFAULT_PRIORITY(sql`s.tenant_id`)}, ${DEFAULT_PRIORITY_SOURCE}, i.is_removed, i.source,
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
      const l = alias(messageRoadmapLinks, 'l');
      const r = alias(items, 'r');
      const x = alias(triageRecords, 'x');
      const recordOf = db.select({ id: x.id }).from(x).where(eq(x.itemId, r.id));
      const rows = await db
        .selectDistinct({ id: r.id })
        .from(tr)
        .innerJoin(l, eq(l.messageItemId, tr.itemId))
        .innerJoin(r, and(eq(r.source, 'roadmap'), eq(r.externalId, l.roadmapExternalId)))
        .where(and(sql`${tr.id} = ANY(${sql.param([...recordIds])}::int[])`, sql`${tr.state} IN ('relevant', 'in_progress')`, notExists(recordOf)));
      return repo.openRecords({ itemIds: rows.map((row) => row.id) }, now, 'request');
    },

    /** The rule version the stored defaults were last brought up to date with everywhere (null: never). */
    async defaultsVersion(): Promise<string | null> {
      const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, VERSION_KEY));
      return typeof row?.value === 'string' ? row.value : null;
    },

    async setDefaultsVersion(version: string, now: Date): Promise<void> {
      await setAppState(db, VERSION_KEY, version, now);
    },

    /**
     * Brings the defaults of the items' records up to date with the items and their relevance (a due date or priority
     * a person or rule set stays).
     */
    async refreshDefaults(which: ItemSet): Promise<void> {
      if (which !== 'all' && which.itemIds.length === 0) return;
      await db
        .update(tr)
        .set({ dueDate: DEFAULT_DUE, dueSource: DEFAULT_DUE_SOURCE })
        .from(i)
        .where(
          and(
            eq(tr.itemId, i.id),
            itemsIn(which, i.id),
            ne(tr.dueSource, MANUAL_DUE),
            or(sql`${tr.dueDate} IS DISTINCT FROM ${DEFAULT_DUE}`, ne(tr.dueSource, DEFAULT_DUE_SOURCE)),
          ),
        );
      await repo.refreshPriorities(which);
    },

    /**
     * Brings the default priority of the items' records up to date with the items and their relevance to each
     * record's tenant: after a sync changed the items, and in a relevance refresh's transaction for the items whose
     * level moved. A priority a person or a rule set stays; only records whose priority changes are written.
     */
    async refreshPriorities(which: ItemSet): Promise<void> {
      if (which !== 'all' && which.itemIds.length === 0) return;
      const priority = DEFAULT_PRIORITY(sql`tr.tenant_id`);
      await db
        .update(tr)
        .set({ priority, prioritySource: DEFAULT_PRIORITY_SOURCE })
        .from(i)
        .where(
          and(
            eq(tr.itemId, i.id),
            itemsIn(which, i.id),
            notInArray(tr.prioritySource, [...KEPT_PRIORITY_SOURCES]),
            or(ne(tr.prioritySource, DEFAULT_PRIORITY_SOURCE), sql`${tr.priority} IS DISTINCT FROM ${priority}`),
          ),
        );
    },

    /** A record's due date and priority as its defaults give them now (what `reset` restores). */
    async defaultsOf(
      id: number,
    ): Promise<{ dueDate: string | null; dueSource: TriageDueSource; priority: TriagePriority; prioritySource: TriagePrioritySource }> {
      const [row] = await db
        .select(defaultFields(sql`tr.tenant_id`))
        .from(tr)
        .innerJoin(i, eq(i.id, tr.itemId))
        .where(eq(tr.id, id));
      if (!row) throw new Error(`triage: no record ${id}`);
      return row;
    },
  };
  return repo;
}

/**
 * Triage's reaction to a relevance refresh, in its transaction (composed in services.ts): the records of the items whose
 * relevance level moved take their new default priority.
 */
export async function onRelevanceMoved(tx: DbOrTx, itemIds: readonly number[]): Promise<void> {
  await createTriageDefaultsRepo(tx).refreshPriorities({ itemIds });
}
