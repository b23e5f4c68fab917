import { and, eq, inArray, isNull, not, notExists, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { TRIAGE_START_WINDOW_DEFAULT_DAYS, type TriageSettings, type TriageStartLine } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { appState, items, tenants, triageRecords } from '../../db/schema/index.js';
import { OPEN_STATES } from './triage-views.js';

/**
 * The starting line of triage. Each tenant has one (`tenants.triage_start`, when it was added), and so do the records
 * of no tenant (app_state 'triage-start', set when the first record opens). Work that was already over at the line is
 * not open work: a record of an item already past then is stored closed "before tracking" (state done, closed_reason
 * 'before_tracking', done_at null), never counted as done by someone. What is past at a moment `start`, of an item `i`:
 * - removed (no feed lists it) before `start`;
 * - a Message Center post that ended before `start`, or whose act-by date lies more than the start window before it;
 * - a Service Health issue resolved before `start`;
 * - a roadmap item Cancelled, or Launched with a GA month before `start` (or none).
 * Records a person, a rule or a tracker touched are never moved by the line.
 */

const SETTINGS_KEY = 'triage-settings';
const START_KEY = 'triage-start';

/** The settings as stored, with their defaults: read inside a statement so opening records costs no round trip. */
export const WINDOW_DAYS_SQL = sql`coalesce((SELECT (value->>'startWindowDays')::int FROM app_state WHERE key = ${SETTINGS_KEY}), ${TRIAGE_START_WINDOW_DEFAULT_DAYS}::int)`;
export const OPEN_UPCOMING_ROADMAP_SQL = sql`coalesce((SELECT (value->>'openUpcomingRoadmap')::boolean FROM app_state WHERE key = ${SETTINGS_KEY}), false)`;
export const GLOBAL_START_SQL = sql`(SELECT (value #>> '{}')::timestamptz FROM app_state WHERE key = ${START_KEY})`;

/** A roadmap item `i` still to come: neither Launched nor Cancelled, and listed. */
export const UPCOMING_ROADMAP = sql`(i.source = 'roadmap' AND NOT i.is_removed AND lower(coalesce(i.status, '')) NOT IN ('launched', 'cancelled'))`;

/** Whether item `i` was already past at `start` (see above), with act-by dates allowed `windowDays` before it. */
export function pastAt(start: SQL, windowDays: SQL): SQL {
  return sql`coalesce(
    (i.is_removed AND i.removed_at < ${start})
    OR CASE i.source
      WHEN 'messages' THEN (i.end_date < ${start} OR i.action_required_by < ${start} - make_interval(days => ${windowDays}))
      WHEN 'health' THEN (i.is_resolved AND coalesce(i.end_date, i.last_changed_at) < ${start})
      ELSE lower(coalesce(i.status, '')) = 'cancelled'
        OR (lower(coalesce(i.status, '')) = 'launched' AND coalesce(i.timing_start < ${start}, true)) END,
    false)`;
}

/** The starting line of record `tr` (its tenant's, or that of the records of no tenant). */
const lineOf = (tr: string) => sql`coalesce((SELECT t.triage_start FROM tenants t WHERE t.id = ${sql.raw(tr)}.tenant_id), ${GLOBAL_START_SQL})`;

/** A record `tr` nobody touched: New, no owner, never changed by a person, no rule set anything, no comment, no task. */
const UNTOUCHED = sql`(tr.state = 'new' AND tr.owner_id IS NULL AND tr.updated_by_id IS NULL AND tr.rule_fields = '{}'::jsonb
  AND NOT EXISTS (SELECT 1 FROM triage_comments c WHERE c.record_id = tr.id)
  AND NOT EXISTS (SELECT 1 FROM tracker_links l WHERE l.record_id = tr.id))`;

const tr = alias(triageRecords, 'tr');
const i = alias(items, 'i');
const scopeOf = (tenantId: number | null) => (tenantId === null ? isNull(tr.tenantId) : eq(tr.tenantId, tenantId));
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** Sets an app_state key to `value`, replacing what it held. */
export const setAppState = (db: DbOrTx, key: string, value: unknown, now: Date) =>
  db
    .insert(appState)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: appState.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } });

export function createTriageStartRepo(db: DbOrTx) {
  return {
    async settings(): Promise<TriageSettings> {
      const [row] = await db
        .select({
          startWindowDays: sql<number | null>`(${appState.value}->>'startWindowDays')::int`,
          openUpcomingRoadmap: sql<boolean | null>`(${appState.value}->>'openUpcomingRoadmap')::boolean`,
        })
        .from(appState)
        .where(eq(appState.key, SETTINGS_KEY));
      return { startWindowDays: Number(row?.startWindowDays ?? TRIAGE_START_WINDOW_DEFAULT_DAYS), openUpcomingRoadmap: row?.openUpcomingRoadmap === true };
    },

    async saveSettings(settings: TriageSettings, now: Date): Promise<void> {
      await setAppState(db, SETTINGS_KEY, settings, now);
    },

    /** The starting line of the records of no tenant is the moment the first record opens: set it if it is not. */
    async ensureGlobalStart(now: Date): Promise<void> {
      await db
        .insert(appState)
        .values({ key: START_KEY, value: sql`to_jsonb(${now.toISOString()}::timestamptz)`, updatedAt: now })
        .onConflictDoNothing({ target: appState.key });
    },

    /**
     * Every line: each tenant's (removed tenants' too while they have records), then that of the records of no tenant
     * when there are any, each with its open records and those closed before tracking.
     */
    async lines(): Promise<TriageStartLine[]> {
      // raw: one CTE read by both halves of a UNION ALL; drizzle puts a WITH inside the first half's parentheses.
      const { rows } = await db.execute<{ tenantId: number | null; tenantName: string; from: string; open: number; closed: number }>(sql`
        WITH counts AS (
          SELECT tr.tenant_id, count(*) FILTER (WHERE tr.state IN ${OPEN_STATES})::int AS open,
            count(*) FILTER (WHERE tr.closed_reason = 'before_tracking')::int AS closed
          FROM triage_records tr GROUP BY tr.tenant_id)
        SELECT t.id AS "tenantId", t.name AS "tenantName", to_char(t.triage_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "from",
          coalesce(c.open, 0) AS open, coalesce(c.closed, 0) AS closed
        FROM tenants t LEFT JOIN counts c ON c.tenant_id = t.id
        WHERE t.removed_at IS NULL OR c.tenant_id IS NOT NULL
        UNION ALL
        SELECT NULL, 'Items of no tenant', to_char(coalesce(${GLOBAL_START_SQL}, now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), c.open, c.closed
        FROM counts c WHERE c.tenant_id IS NULL
        ORDER BY 1 NULLS LAST`);
      const lines = rows.map((r) => ({
        tenantId: r.tenantId === null ? null : Number(r.tenantId),
        tenantName: r.tenantName,
        from: r.from,
        open: Number(r.open),
        closedBeforeTracking: Number(r.closed),
      }));
      return lines.sort((a, b) => (a.tenantId === null ? 1 : b.tenantId === null ? -1 : a.tenantName.localeCompare(b.tenantName)));
    },

    /**
     * What moving a line to `from` (00:00 UTC of that day) does: the untouched open records of items past then close,
     * and the records closed before tracking of items not past then open again (tracked from that day). Counted only,
     * unless `apply`; then the line moves too. Roadmap records are included: a roadmap item opened by a person or rule
     * is touched, so only records the upcoming-roadmap setting opened can close.
     */
    async move(tenantId: number | null, from: string, now: Date, apply: boolean): Promise<{ opens: number; closes: number }> {
      const start = sql`${`${from}T00:00:00Z`}::timestamptz`;
      const past = pastAt(start, WINDOW_DAYS_SQL);
      const recordsWhere = (condition: SQL | undefined) =>
        db
          .select({ id: tr.id })
          .from(tr)
          .innerJoin(i, eq(i.id, tr.itemId))
          .where(and(scopeOf(tenantId), condition));
      const closing = recordsWhere(and(UNTOUCHED, past));
      const opening = recordsWhere(and(eq(tr.closedReason, 'before_tracking'), not(past)));
      if (!apply) return { closes: await db.$count(closing.as('c')), opens: await db.$count(opening.as('o')) };
      const closed = await db
        .update(triageRecords)
        .set({ state: 'done', closedReason: 'before_tracking', doneAt: null })
        .where(inArray(triageRecords.id, closing))
        .returning({ id: triageRecords.id });
      const opened = await db
        .update(triageRecords)
        .set({ state: 'new', closedReason: null, doneAt: null, openedOn: from })
        .where(inArray(triageRecords.id, opening))
        .returning({ id: triageRecords.id });
      if (tenantId === null) await setAppState(db, START_KEY, sql`to_jsonb(${start})`, now);
      else await db.update(tenants).set({ triageStart: start }).where(eq(tenants.id, tenantId));
      return { closes: closed.length, opens: opened.length };
    },

    /**
     * Records closed before tracking whose item changed so that it was not past at the line after all (Microsoft
     * extended a post, moved an act-by date) open again, tracked from today. Returns their ids.
     */
    async reopenChanged(itemIds: readonly number[], now: Date): Promise<number[]> {
      if (itemIds.length === 0) return [];
      const rows = await db
        .update(tr)
        .set({ state: 'new', closedReason: null, openedOn: dayOf(now) })
        .from(i)
        .where(
          and(
            eq(i.id, tr.itemId),
            sql`${tr.itemId} = ANY(${sql.param([...itemIds])}::int[])`,
            eq(tr.closedReason, 'before_tracking'),
            not(pastAt(lineOf('tr'), WINDOW_DAYS_SQL)),
          ),
        )
        .returning({ id: tr.id });
      return rows.map((r) => r.id);
    },

    /** The records every upcoming roadmap item lacks (the setting to open them all): their item ids. */
    async upcomingRoadmapWithoutRecord(): Promise<number[]> {
      const rows = await db
        .select({ id: i.id })
        .from(i)
        .where(
          and(
            UPCOMING_ROADMAP,
            notExists(
              db
                .select({ one: sql`1` })
                .from(tr)
                .where(eq(tr.itemId, i.id)),
            ),
          ),
        );
      return rows.map((r) => r.id);
    },

    /**
     * Once, when an installation that triaged before the starting line existed upgrades: the roadmap records nobody
     * touched go (roadmap items are opened on request now; the upcoming ones stay when the setting opens them all),
     * and the untouched records of items past at their line close before tracking. Returns what it did.
     */
    async upgradeOnce(now: Date): Promise<{ removed: number; closed: number } | null> {
      const done = await db
        .insert(appState)
        .values({ key: 'triage-start-upgrade', value: 1, updatedAt: now })
        .onConflictDoNothing({ target: appState.key })
        .returning({ key: appState.key });
      if (done.length === 0) return null;
      const removed = await db
        .delete(triageRecords)
        .where(
          inArray(
            triageRecords.id,
            db
              .select({ id: tr.id })
              .from(tr)
              .innerJoin(i, eq(i.id, tr.itemId))
              .where(and(eq(tr.source, 'roadmap'), UNTOUCHED, sql`NOT (${OPEN_UPCOMING_ROADMAP_SQL} AND ${UPCOMING_ROADMAP})`)),
          ),
        )
        .returning({ id: triageRecords.id });
      const closed = await db
        .update(tr)
        .set({ state: 'done', closedReason: 'before_tracking', doneAt: null })
        .from(i)
        .where(and(eq(i.id, tr.itemId), UNTOUCHED, pastAt(lineOf('tr'), WINDOW_DAYS_SQL)))
        .returning({ id: tr.id });
      return { removed: removed.length, closed: closed.length };
    },
  };
}
