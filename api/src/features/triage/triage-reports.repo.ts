import { sql, type SQL } from 'drizzle-orm';
import {
  CHANGE_HEALTH_IMMINENT_DAYS,
  CHANGE_HEALTH_PRIORITY_WEIGHTS,
  CHANGE_HEALTH_UNTRIAGED_DAYS,
  changeHealthScore,
  type ChangeHealthCostKind,
} from '@radar/contracts';
import { type TenantScope } from '../items/item-query.js';
import { OPEN_STATES, overdueOn, visibleTriageRecord } from './triage-views.js';
import type { DbOrTx } from '../../db/client.js';
import { personNameSql } from './triage-users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The weekly change-health figures. */
export interface ChangeHealth {
  openByOwner: { owner: string; open: number; overdue: number }[];
  open: number;
  overdue: number;
  /** Done by someone since the period began. */
  done: number;
  nearest: { title: string; source: 'roadmap' | 'messages' | 'health'; externalId: string; owner: string | null; dueDate: string; tenantName: string | null }[];
}

const OWNER_NAME = personNameSql('o');

/** A record's weight in the change-health score: its priority's. */
const WEIGHT = sql`(CASE tr.priority WHEN 'high' THEN ${CHANGE_HEALTH_PRIORITY_WEIGHTS.high}::int WHEN 'medium' THEN ${CHANGE_HEALTH_PRIORITY_WEIGHTS.medium}::int ELSE ${CHANGE_HEALTH_PRIORITY_WEIGHTS.low}::int END)`;

/** Which open records `tr` each change-health cost counts on `today` (contracts change-health.ts). */
function healthConditions(today: string): Record<ChangeHealthCostKind, SQL> {
  const open = sql`tr.state IN ${OPEN_STATES}`;
  return {
    overdue: sql`${open} AND ${overdueOn(today)}`,
    unowned: sql`${open} AND tr.owner_id IS NULL`,
    imminent: sql`${open} AND tr.state = 'new' AND tr.due_date >= ${today}::date AND tr.due_date <= ${today}::date + ${CHANGE_HEALTH_IMMINENT_DAYS}::int`,
    untriaged: sql`${open} AND tr.state = 'new' AND tr.opened_on <= ${today}::date - ${CHANGE_HEALTH_UNTRIAGED_DAYS}::int`,
  };
}

/** The weighted sums of the score, as aggregates over `tr`. */
function healthSums(today: string): { weight: SQL } & Record<ChangeHealthCostKind, SQL> {
  const c = healthConditions(today);
  const sum = (where: SQL) => sql`coalesce(sum(${WEIGHT}) FILTER (WHERE ${where}), 0)::int`;
  return {
    weight: sum(sql`tr.state IN ${OPEN_STATES}`),
    overdue: sum(c.overdue),
    unowned: sum(c.unowned),
    imminent: sum(c.imminent),
    untriaged: sum(c.untriaged),
  };
}

export function createTriageReportsRepo(db: DbOrTx) {
  return {
    /**
     * Counts today's open, overdue, done and not-relevant records per tenant, and the change-health sums, replacing
     * today's earlier count. Open records count whatever became of their items (they stay in the queues).
     */
    async recordDay(now: Date): Promise<void> {
      const today = now.toISOString().slice(0, 10);
      const open = sql`tr.state IN ${OPEN_STATES}`;
      const { weight, overdue, unowned, imminent, untriaged } = healthSums(today);
      await db.execute(sql`
        INSERT INTO triage_daily_counts (day, tenant_key, open, overdue, done, not_relevant, weight, weight_overdue, weight_unowned, weight_imminent, weight_untriaged)
        SELECT ${today}::date, coalesce(tr.tenant_id, 0),
          count(*) FILTER (WHERE ${open})::int,
          count(*) FILTER (WHERE ${open} AND ${overdueOn(today)})::int,
          count(*) FILTER (WHERE tr.state = 'done' AND tr.closed_reason IS NULL AND NOT tr.item_removed)::int,
          count(*) FILTER (WHERE tr.state = 'not_relevant' AND NOT tr.item_removed)::int,
          ${weight}, ${overdue}, ${unowned}, ${imminent}, ${untriaged}
        FROM triage_records tr
        GROUP BY coalesce(tr.tenant_id, 0)
        ON CONFLICT (day, tenant_key) DO UPDATE SET open = excluded.open, overdue = excluded.overdue, done = excluded.done,
          not_relevant = excluded.not_relevant, weight = excluded.weight, weight_overdue = excluded.weight_overdue,
          weight_unowned = excluded.weight_unowned, weight_imminent = excluded.weight_imminent, weight_untriaged = excluded.weight_untriaged`);
    },

    /**
     * The change-health sums of the open records now (of every tenant the scope sees, of no tenant, or of one tenant):
     * the weights for the score, and how many records each cost counts.
     */
    async health(
      tenant: 'all' | 'none' | number,
      scope: TenantScope | undefined,
      now: Date,
    ): Promise<{ open: number; sums: { weight: number } & Record<ChangeHealthCostKind, number>; records: Record<ChangeHealthCostKind, number> }> {
      const today = now.toISOString().slice(0, 10);
      const s = healthSums(today);
      const c = healthConditions(today);
      const which = tenant === 'all' ? visibleTriageRecord(scope) : tenant === 'none' ? sql`tr.tenant_id IS NULL` : sql`tr.tenant_id = ${tenant}`;
      const { rows } = await db.execute<Record<string, number>>(sql`
        SELECT count(*) FILTER (WHERE tr.state IN ${OPEN_STATES})::int AS open,
          ${s.weight} AS weight, ${s.overdue} AS w_overdue, ${s.unowned} AS w_unowned, ${s.imminent} AS w_imminent, ${s.untriaged} AS w_untriaged,
          count(*) FILTER (WHERE ${c.overdue})::int AS overdue, count(*) FILTER (WHERE ${c.unowned})::int AS unowned,
          count(*) FILTER (WHERE ${c.imminent})::int AS imminent, count(*) FILTER (WHERE ${c.untriaged})::int AS untriaged
        FROM triage_records tr WHERE ${which}`);
      const r = rows[0] ?? {};
      const n = (k: string) => Number(r[k] ?? 0);
      return {
        open: n('open'),
        sums: { weight: n('weight'), overdue: n('w_overdue'), unowned: n('w_unowned'), imminent: n('w_imminent'), untriaged: n('w_untriaged') },
        records: { overdue: n('overdue'), unowned: n('unowned'), imminent: n('imminent'), untriaged: n('untriaged') },
      };
    },

    /** The change-health score of each counted day of the last `days` days, of every tenant key given ('all': every one). */
    async healthSeries(tenantKeys: readonly number[] | 'all', days: number, now: Date) {
      const since = new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
      const keys = tenantKeys === 'all' ? sql`true` : sql`tenant_key = ANY(${sql.param([...tenantKeys])}::int[])`;
      const { rows } = await db.execute<{ date: string; weight: number; overdue: number; unowned: number; imminent: number; untriaged: number }>(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(weight)::int AS weight, sum(weight_overdue)::int AS overdue,
          sum(weight_unowned)::int AS unowned, sum(weight_imminent)::int AS imminent, sum(weight_untriaged)::int AS untriaged
        FROM triage_daily_counts WHERE day >= ${since}::date AND weight IS NOT NULL AND ${keys}
        GROUP BY day ORDER BY day`);
      return rows.map((r) => ({
        date: r.date,
        score: changeHealthScore({
          weight: Number(r.weight),
          overdue: Number(r.overdue),
          unowned: Number(r.unowned),
          imminent: Number(r.imminent),
          untriaged: Number(r.untriaged),
        }).score,
      }));
    },

    /**
     * The counted days of the last `days` days: every tenant summed, one tenant, or the records of no tenant (0), with
     * each day's change-health score (null before the score was counted).
     */
    async series(tenant: 'all' | number, days: number, now: Date) {
      const since = new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
      const { rows } = await db.execute<Record<string, string | number | null>>(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(open)::int AS open, sum(overdue)::int AS overdue, sum(done)::int AS done,
          sum(not_relevant)::int AS "notRelevant", bool_and(weight IS NOT NULL) AS scored, sum(weight)::int AS weight,
          sum(weight_overdue)::int AS w_overdue, sum(weight_unowned)::int AS w_unowned, sum(weight_imminent)::int AS w_imminent,
          sum(weight_untriaged)::int AS w_untriaged
        FROM triage_daily_counts
        WHERE day >= ${since}::date AND ${tenant === 'all' ? sql`true` : sql`tenant_key = ${tenant}`}
        GROUP BY day ORDER BY day`);
      return rows.map((r) => {
        const n = (k: string) => Number(r[k] ?? 0);
        const score = r.scored
          ? changeHealthScore({ weight: n('weight'), overdue: n('w_overdue'), unowned: n('w_unowned'), imminent: n('w_imminent'), untriaged: n('w_untriaged') })
              .score
          : null;
        return { date: String(r.date), open: n('open'), overdue: n('overdue'), done: n('done'), notRelevant: n('notRelevant'), score };
      });
    },

    /** The figures of the change-health report: open and overdue by owner, done since `since`, the 10 nearest due dates. */
    async changeHealth(now: Date, since: Date): Promise<ChangeHealth> {
      const today = now.toISOString().slice(0, 10);
      const { rows: byOwner } = await db.execute<{ owner: string | null; open: number; overdue: number }>(sql`
        SELECT ${OWNER_NAME} AS owner, count(*)::int AS open, count(*) FILTER (WHERE ${overdueOn(today)})::int AS overdue
        FROM triage_records tr JOIN items i ON i.id = tr.item_id AND NOT i.is_removed LEFT JOIN users o ON o.id = tr.owner_id
        WHERE tr.state IN ${OPEN_STATES}
        GROUP BY 1 ORDER BY count(*) DESC, 1 NULLS LAST`);
      const { rows: done } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM triage_records WHERE state = 'done' AND done_at >= ${since}`);
      const { rows: nearest } = await db.execute<ChangeHealth['nearest'][number]>(sql`
        SELECT i.title, i.source, i.external_id AS "externalId", ${OWNER_NAME} AS owner, to_char(tr.due_date, 'YYYY-MM-DD') AS "dueDate", t.name AS "tenantName"
        FROM triage_records tr JOIN items i ON i.id = tr.item_id AND NOT i.is_removed
        LEFT JOIN users o ON o.id = tr.owner_id LEFT JOIN tenants t ON t.id = tr.tenant_id
        WHERE tr.state IN ${OPEN_STATES} AND tr.due_date >= ${today}::date
        ORDER BY tr.due_date, tr.id LIMIT 10`);
      const openByOwner = byOwner.map((r) => ({ owner: r.owner ?? 'Unassigned', open: Number(r.open), overdue: Number(r.overdue) }));
      return {
        openByOwner,
        open: openByOwner.reduce((n, r) => n + r.open, 0),
        overdue: openByOwner.reduce((n, r) => n + r.overdue, 0),
        done: Number(done[0]?.n ?? 0),
        nearest,
      };
    },
  };
}
