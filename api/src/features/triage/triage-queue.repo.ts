import { sql, type SQL } from 'drizzle-orm';
import type { TriageView } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
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
    ? sql`triage_records tr JOIN items ON items.id = tr.item_id WHERE ${itemWhere(itemFilters, q.now, searchPlan(q.filters.search), 'all', triageLens)} AND ${records}`
    : sql`triage_records tr WHERE ${records}`;
  return {
    page: sql`SELECT tr.id FROM ${from} ORDER BY ${queueOrder(q.view)} LIMIT ${q.limit} OFFSET ${(q.page - 1) * q.limit}`,
    count: sql`SELECT count(*)::int AS n FROM ${from}`,
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
  };
}
