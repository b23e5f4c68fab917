import { sql } from 'drizzle-orm';
import { OPEN_STATES, overdueOn } from '../items/item-query.js';
import type { DbOrTx } from '../../db/client.js';
import { personNameSql } from './triage-users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The weekly change-health figures. */
export interface ChangeHealth {
  openByOwner: { owner: string; open: number; overdue: number }[];
  open: number;
  overdue: number;
  doneThisWeek: number;
  nearest: { title: string; source: 'roadmap' | 'messages' | 'health'; externalId: string; owner: string | null; dueDate: string; tenantName: string | null }[];
}

const OWNER_NAME = personNameSql('o');

export function createTriageReportsRepo(db: DbOrTx) {
  return {
    /** Counts today's open, overdue, done and not-relevant records per tenant (items still listed), replacing today's earlier count. */
    async recordDay(now: Date): Promise<void> {
      const today = now.toISOString().slice(0, 10);
      await db.execute(sql`
        INSERT INTO triage_daily_counts (day, tenant_key, open, overdue, done, not_relevant)
        SELECT ${today}::date, coalesce(tr.tenant_id, 0),
          count(*) FILTER (WHERE tr.state IN ${OPEN_STATES})::int,
          count(*) FILTER (WHERE tr.state IN ${OPEN_STATES} AND ${overdueOn(today)})::int,
          count(*) FILTER (WHERE tr.state = 'done' AND tr.closed_reason IS NULL)::int,
          count(*) FILTER (WHERE tr.state = 'not_relevant')::int
        FROM triage_records tr WHERE NOT tr.item_removed
        GROUP BY coalesce(tr.tenant_id, 0)
        ON CONFLICT (day, tenant_key) DO UPDATE SET open = excluded.open, overdue = excluded.overdue, done = excluded.done, not_relevant = excluded.not_relevant`);
    },

    /** The counted days of the last `days` days: every tenant summed, one tenant, or the records of no tenant (0). */
    async series(tenant: 'all' | number, days: number, now: Date) {
      const since = new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
      const { rows } = await db.execute<{ date: string; open: number; overdue: number; done: number; notRelevant: number }>(sql`
        SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(open)::int AS open, sum(overdue)::int AS overdue, sum(done)::int AS done,
          sum(not_relevant)::int AS "notRelevant"
        FROM triage_daily_counts
        WHERE day >= ${since}::date AND ${tenant === 'all' ? sql`true` : sql`tenant_key = ${tenant}`}
        GROUP BY day ORDER BY day`);
      return rows.map((r) => ({ ...r, open: Number(r.open), overdue: Number(r.overdue), done: Number(r.done), notRelevant: Number(r.notRelevant) }));
    },

    /** The figures of the weekly change-health mail: open and overdue by owner, done in the last 7 days, the 10 nearest due dates. */
    async changeHealth(now: Date): Promise<ChangeHealth> {
      const today = now.toISOString().slice(0, 10);
      const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
      const { rows: byOwner } = await db.execute<{ owner: string | null; open: number; overdue: number }>(sql`
        SELECT ${OWNER_NAME} AS owner, count(*)::int AS open, count(*) FILTER (WHERE ${overdueOn(today)})::int AS overdue
        FROM triage_records tr JOIN items i ON i.id = tr.item_id AND NOT i.is_removed LEFT JOIN users o ON o.id = tr.owner_id
        WHERE tr.state IN ${OPEN_STATES}
        GROUP BY 1 ORDER BY count(*) DESC, 1 NULLS LAST`);
      const { rows: done } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM triage_records WHERE state = 'done' AND done_at >= ${weekAgo}`);
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
        doneThisWeek: Number(done[0]?.n ?? 0),
        nearest,
      };
    },
  };
}
