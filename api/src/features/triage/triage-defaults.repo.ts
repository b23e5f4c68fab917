import { sql, type SQL } from 'drizzle-orm';
import type { TriageDueSource, TriagePriority, TriagePrioritySource } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { createTriageStartRepo, GLOBAL_START_SQL, OPEN_UPCOMING_ROADMAP_SQL, pastAt, UPCOMING_ROADMAP, WINDOW_DAYS_SQL } from './triage-start.repo.js';

/**
 * The defaults of a record, read from its item `i` (one rule, used when the sync opens a record and whenever the
 * item changes):
 * - due date: Microsoft's act-by date (actionRequiredByDateTime, as a UTC day), else the start of the post's rollout
 *   window, else the roadmap item's GA month (both are items.timing_start), else none;
 * - priority: High for a post Microsoft marks high severity, a major change with an act-by date, or a service
 *   incident; Medium for an act-by date or a major change alone; Low for an advisory or an item without any of these.
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

/** Who set the fields a person cannot have set by default. */
const MANUAL_DUE = sql`'manual'`;
const KEPT_PRIORITY_SOURCES = sql`('manual', 'rule')`;

/** Which items a statement covers: some by id, or every item. */
export type ItemSet = { itemIds: readonly number[] } | 'all';
const itemsIn = (which: ItemSet, column: SQL) => (which === 'all' ? sql`true` : sql`${column} = ANY(${sql.param([...which.itemIds])}::int[])`);

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
      return repo.openRecords({ itemIds: rows.map((r) => Number(r.id)) }, now, 'request');
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
  };
  return repo;
}
