import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias, QueryBuilder } from 'drizzle-orm/pg-core';
import type { TriageView } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, triageRecords } from '../../db/schema/index.js';
import { itemWhere, searchPlan, type ItemWhereFilters, type TenantScope } from '../items/item-query.js';
import { hasItemFilters, listsRemovedItems, overdueOn, recordSourceCondition, queueOrder, triageViewCondition, visibleTriageRecord } from './triage-views.js';
import { triageLens } from './triage-lens.js';

/** A page of a queue view: the list's filters on the records' items, the view, whose queue, and which page. */
export interface QueueRequest {
  filters: ItemWhereFilters;
  view: TriageView;
  userId: number;
  now: Date;
  page: number;
  limit: number;
}

const tr = alias(triageRecords, 'tr');

/**
 * The statements of one page of a queue view and of its total, in queueOrder. Without list filters but sources the
 * records alone answer (their own item_removed, tenant and source say whether the caller may see them and want them),
 * so a page is the first rows of a queue index and a total an index-only count; with other filters the records are
 * joined to their items.
 */
export function queueSql(q: QueueRequest): { page: SQL; count: SQL } {
  const records = and(
    visibleTriageRecord(q.filters.tenantScope),
    triageViewCondition(q.view, q.userId, q.now, q.filters.includeRemoved),
    recordSourceCondition(q.filters),
  );
  // An open view lists its records' items whatever became of them (triageViewCondition); the list's filters apply.
  const itemFilters = { ...q.filters, includeRemoved: listsRemovedItems({ ...q.filters, triage: q.view }) };
  // Built without a database: the bench (bench/triage.bench.ts) prints and times the same statements.
  const qb = new QueryBuilder();
  const inView = <T extends ReturnType<typeof qb.select>>(query: T) =>
    hasItemFilters(q.filters)
      ? query
          .from(tr)
          .innerJoin(items, eq(items.id, tr.itemId))
          .where(and(itemWhere(itemFilters, q.now, searchPlan(q.filters.search), 'all', triageLens), records))
      : query.from(tr).where(records);
  return {
    page: inView(qb.select({ id: tr.id }))
      .orderBy(queueOrder(q.view))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .getSQL(),
    count: inView(qb.select({ n: sql<number>`count(*)::int`.as('n') })).getSQL(),
  };
}

/** The queue views and the header menu's counts. */
export function createTriageQueueRepo(db: DbOrTx) {
  return {
    /**
     * One page of a queue view: the records (with the list's filters on their items) in view, nearest due date first
     * (none last), then higher priority, then newest item; and how many there are.
     */
    async queue(q: QueueRequest): Promise<{ recordIds: number[]; total: number }> {
      const { page, count } = queueSql(q);
      // Run as queueSql built them, so the bench measures the very statements the app sends.
      const [pageRows, countRows] = await Promise.all([db.execute<{ id: number }>(page), db.execute<{ n: number }>(count)]);
      return { recordIds: pageRows.rows.map((r) => Number(r.id)), total: Number(countRows.rows[0]?.n ?? 0) };
    },

    /** The caller's open records (of items still listed) and how many of them are overdue. */
    async counts(userId: number, scope: TenantScope | undefined, now: Date): Promise<{ open: number; overdue: number }> {
      const today = now.toISOString().slice(0, 10);
      const [row] = await db
        .select({ open: sql<number>`count(*)::int`, overdue: sql<number>`count(*) FILTER (WHERE ${overdueOn(today)})::int` })
        .from(tr)
        .where(and(triageViewCondition('mine', userId, now), visibleTriageRecord(scope)));
      return { open: Number(row?.open ?? 0), overdue: Number(row?.overdue ?? 0) };
    },
  };
}
