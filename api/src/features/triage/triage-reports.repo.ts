import { and, desc, eq, gte, isNotNull, not, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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
import { items, tenants, triageDailyCounts, triageRecords, users } from '../../db/schema/index.js';
import { personNameSql } from './triage-users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A counted day as YYYY-MM-DD, and a column's sum over the tenants of a day. */
const DATE = sql<string>`to_char(${triageDailyCounts.day}, 'YYYY-MM-DD')`;
const sumOf = (column: SQLWrapper) => sql<number | null>`sum(${column})::int`;

/** The weekly change-health figures. */
export interface ChangeHealth {
  openByOwner: { owner: string; open: number; overdue: number }[];
  open: number;
  overdue: number;
  /** Done by someone since the period began. */
  done: number;
  nearest: { title: string; source: 'roadmap' | 'messages' | 'health'; externalId: string; owner: string | null; dueDate: string; tenantName: string | null }[];
}

const tr = alias(triageRecords, 'tr');
const i = alias(items, 'i');
const o = alias(users, 'o');
const t = alias(tenants, 't');
const daily = triageDailyCounts;

const OWNER_NAME = personNameSql('o');
const isOpen = sql`tr.state IN ${OPEN_STATES}`;

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

/** How many records `tr` match, as an aggregate. */
const countWhere = (where: SQL) => sql<number>`count(*) FILTER (WHERE ${where})::int`;

/** The weighted sums of the score, as aggregates over `tr`. */
function healthSums(today: string): { weight: SQL<number> } & Record<ChangeHealthCostKind, SQL<number>> {
  const c = healthConditions(today);
  const sum = (where: SQL) => sql<number>`coalesce(sum(${WEIGHT}) FILTER (WHERE ${where}), 0)::int`;
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
      const { weight, overdue, unowned, imminent, untriaged } = healthSums(today);
      // raw: INSERT … SELECT … ON CONFLICT DO UPDATE of all eleven counts; drizzle's insert().select() wants an alias on
      // every computed field and the update a line per column, twice as long as the statement.
      await db.execute(sql`
        INSERT INTO triage_daily_counts (day, tenant_key, open, overdue, done, not_relevant, weight, weight_overdue, weight_unowned, weight_imminent, weight_untriaged)
        SELECT ${today}::date, coalesce(tr.tenant_id, 0),
          count(*) FILTER (WHERE ${isOpen})::int,
          count(*) FILTER (WHERE ${isOpen} AND ${overdueOn(today)})::int,
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
      const [r] = await db
        .select({
          open: countWhere(isOpen),
          sums: s,
          records: { overdue: countWhere(c.overdue), unowned: countWhere(c.unowned), imminent: countWhere(c.imminent), untriaged: countWhere(c.untriaged) },
        })
        .from(tr)
        .where(which);
      const n = (v: number | undefined) => Number(v ?? 0);
      return {
        open: n(r?.open),
        sums: {
          weight: n(r?.sums.weight),
          overdue: n(r?.sums.overdue),
          unowned: n(r?.sums.unowned),
          imminent: n(r?.sums.imminent),
          untriaged: n(r?.sums.untriaged),
        },
        records: { overdue: n(r?.records.overdue), unowned: n(r?.records.unowned), imminent: n(r?.records.imminent), untriaged: n(r?.records.untriaged) },
      };
    },

    /** The change-health score of each counted day of the last `days` days, of every tenant key given ('all': every one). */
    async healthSeries(tenantKeys: readonly number[] | 'all', days: number, now: Date) {
      const since = new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
      const keys = tenantKeys === 'all' ? sql`true` : sql`${daily.tenantKey} = ANY(${sql.param([...tenantKeys])}::int[])`;
      const rows = await db
        .select({
          date: DATE,
          weight: sumOf(daily.weight),
          overdue: sumOf(daily.weightOverdue),
          unowned: sumOf(daily.weightUnowned),
          imminent: sumOf(daily.weightImminent),
          untriaged: sumOf(daily.weightUntriaged),
        })
        .from(daily)
        .where(and(gte(daily.day, since), isNotNull(daily.weight), keys))
        .groupBy(daily.day)
        .orderBy(daily.day);
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
      const rows = await db
        .select({
          date: DATE,
          open: sumOf(daily.open),
          overdue: sumOf(daily.overdue),
          done: sumOf(daily.done),
          notRelevant: sumOf(daily.notRelevant),
          scored: sql<boolean>`bool_and(${daily.weight} IS NOT NULL)`,
          sums: {
            weight: sumOf(daily.weight),
            overdue: sumOf(daily.weightOverdue),
            unowned: sumOf(daily.weightUnowned),
            imminent: sumOf(daily.weightImminent),
            untriaged: sumOf(daily.weightUntriaged),
          },
        })
        .from(daily)
        .where(and(gte(daily.day, since), tenant === 'all' ? sql`true` : eq(daily.tenantKey, tenant)))
        .groupBy(daily.day)
        .orderBy(daily.day);
      return rows.map((r) => {
        const n = (v: number | null) => Number(v ?? 0);
        const { weight, overdue, unowned, imminent, untriaged } = r.sums;
        const score = r.scored
          ? changeHealthScore({ weight: n(weight), overdue: n(overdue), unowned: n(unowned), imminent: n(imminent), untriaged: n(untriaged) }).score
          : null;
        return { date: String(r.date), open: n(r.open), overdue: n(r.overdue), done: n(r.done), notRelevant: n(r.notRelevant), score };
      });
    },

    /** The figures of the change-health report: open and overdue by owner, done since `since`, the 10 nearest due dates. */
    async changeHealth(now: Date, since: Date): Promise<ChangeHealth> {
      const today = now.toISOString().slice(0, 10);
      const byOwner = await db
        .select({ owner: sql<string | null>`${OWNER_NAME}`, open: sql<number>`count(*)::int`, overdue: countWhere(overdueOn(today)) })
        .from(tr)
        .innerJoin(i, and(eq(i.id, tr.itemId), not(i.isRemoved)))
        .leftJoin(o, eq(o.id, tr.ownerId))
        .where(isOpen)
        .groupBy(OWNER_NAME)
        .orderBy(desc(sql`count(*)`), sql`${OWNER_NAME} NULLS LAST`);
      const done = await db.$count(triageRecords, and(eq(triageRecords.state, 'done'), gte(triageRecords.doneAt, since)));
      const nearest = await db
        .select({
          title: i.title,
          source: i.source,
          externalId: i.externalId,
          owner: sql<string | null>`${OWNER_NAME}`,
          dueDate: sql<string>`to_char(tr.due_date, 'YYYY-MM-DD')`,
          tenantName: t.name,
        })
        .from(tr)
        .innerJoin(i, and(eq(i.id, tr.itemId), not(i.isRemoved)))
        .leftJoin(o, eq(o.id, tr.ownerId))
        .leftJoin(t, eq(t.id, tr.tenantId))
        .where(and(isOpen, gte(tr.dueDate, today)))
        .orderBy(tr.dueDate, tr.id)
        .limit(10);
      const openByOwner = byOwner.map((r) => ({ owner: r.owner ?? 'Unassigned', open: Number(r.open), overdue: Number(r.overdue) }));
      return {
        openByOwner,
        open: openByOwner.reduce((n, r) => n + r.open, 0),
        overdue: openByOwner.reduce((n, r) => n + r.overdue, 0),
        done,
        nearest,
      };
    },
  };
}
