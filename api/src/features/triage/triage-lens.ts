import { and, sql, type SQL } from 'drizzle-orm';
import { alias, QueryBuilder } from 'drizzle-orm/pg-core';
import { triageRecords } from '../../db/schema/index.js';
import {
  itemWhere,
  nullsLastSql,
  sortDirectionSql,
  type DueSortFilters,
  type ItemFilters,
  type ItemListRequest,
  type ItemWhereFilters,
} from '../items/item-query.js';
import type { TriageLens } from '../items/triage-lens.js';
import { hasItemFilters, listsRemovedItems, OPEN_STATES, recordSourceCondition, triageViewCondition, visibleTriageRecord } from './triage-views.js';

const tr = alias(triageRecords, 'tr');

/**
 * The triage records an item's due date is read from: those the caller may see, and in a triage view the records in
 * that view (My queue sorts by my due dates, not a colleague's); outside a view every open record of a live item.
 */
function dueRecords(f: DueSortFilters, now: Date): SQL {
  const inView =
    f.triage && f.triageUserId !== undefined
      ? triageViewCondition(f.triage, f.triageUserId, now, f.includeRemoved)
      : sql`tr.state IN ${OPEN_STATES} AND NOT tr.item_removed`;
  return sql`${visibleTriageRecord(f.tenantScope)} AND ${inView}`;
}

/** The list's `due` sort key: the nearest due date of the item's records in `dueRecords` (none sorts last). */
export function nearestDueSql(f: DueSortFilters, now: Date): SQL {
  return sql`(SELECT min(tr.due_date) FROM triage_records tr WHERE tr.item_id = items.id AND ${dueRecords(f, now)})`;
}

/**
 * A triage view with no list filter but sources and no search: its items are exactly the items of the records in view
 * (of those sources), so the list's total is counted from the records alone (the queue indexes), without reading an
 * item per record. A record the caller may see is of an item they may see (a tenant's record exists only while the
 * item lists that tenant, an item's own record only while it has none), a record's `item_removed` follows the item,
 * and its `source` is the item's.
 */
export function triageOnly(f: ItemWhereFilters & Partial<Pick<ItemListRequest, 'sortField' | 'sortDirection' | 'page' | 'limit'>>): boolean {
  const { sortField: _field, sortDirection: _direction, page: _page, limit: _limit, ...filters } = f;
  return Boolean(f.triage && f.triageUserId !== undefined && !f.search?.trim() && !hasItemFilters(filters));
}

/** The list's total for a `triageOnly` request: the distinct items of the records in view (of the sources asked for). */
export function triageOnlyCountSql(f: ItemWhereFilters, now: Date): SQL {
  // Built without a database: the items repo runs it on its pool.
  return new QueryBuilder()
    .select({ n: sql<number>`count(DISTINCT ${tr.itemId})::int`.as('n') })
    .from(tr)
    .where(and(dueRecords(f, now), recordSourceCondition(f)))
    .getSQL();
}

/**
 * The item ids of one page of the list sorted by due date (no search), in list order, as a top-N: the items with a
 * due date are found by walking the records in view in (due date, item) order (triage_records_open_due_item_idx)
 * and keeping each item's nearest-due record, until `offset + limit` items passed the list's filters; only if those
 * are fewer does the page go on into the items without one, in id order. A walked record is in the triage view, so
 * its item needs no test of the view. Computing every item's nearest due date and sorting them all read ~300,000
 * buffers at 100,000 items; grouping a view's records by item, 1,800–2,600.
 */
export function duePageSql(f: ItemFilters, now: Date, limit: number, offset: number): SQL {
  const want = offset + limit;
  const asc = f.sortDirection === 'asc';
  const walk = asc ? sql`r.due_date ASC, r.item_id ASC` : sql`r.due_date DESC, r.item_id DESC`;
  const records = dueRecords(f, now);
  const { triage: _view, ...rest } = f;
  // The walked records are the view's already; an open view's items are listed whatever became of them.
  const withoutView = { ...rest, includeRemoved: listsRemovedItems(f) };
  // raw: a MATERIALIZED CTE read by a second one and a UNION ALL of both; drizzle's $with has no MATERIALIZED and its
  // set operators cannot share a WITH.
  return sql`WITH dated AS MATERIALIZED (
      SELECT DISTINCT r.due_date AS due, r.item_id AS id
      FROM (SELECT tr.item_id, tr.due_date FROM triage_records tr WHERE ${records} AND tr.due_date IS NOT NULL) r
      JOIN items ON items.id = r.item_id
      WHERE NOT EXISTS (SELECT 1 FROM triage_records tr WHERE tr.item_id = r.item_id AND ${records} AND tr.due_date < r.due_date)
        AND ${itemWhere(withoutView, now, null, 'all', triageLens)}
      ORDER BY ${walk} LIMIT ${want}),
    undated AS (
      SELECT items.id FROM items
      WHERE ${itemWhere(f, now, null, 'all', triageLens)} AND NOT EXISTS (SELECT 1 FROM triage_records tr WHERE tr.item_id = items.id AND ${records} AND tr.due_date IS NOT NULL)
      ORDER BY items.id ${sortDirectionSql(f)} LIMIT (SELECT ${want} - count(*) FROM dated))
    SELECT id AS item_id, due FROM dated
    UNION ALL SELECT id, NULL FROM undated
    ORDER BY due ${nullsLastSql(f)}, item_id ${sortDirectionSql(f)} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Triage as the list sees it (items/triage-lens.ts): the list's triage views, the due sort and the totals the records
 * answer alone. Handed to the items repo where the app is composed (services.ts).
 */
export const triageLens: TriageLens = {
  // The items of the records in view, read once through the queue indexes (not a lookup per item).
  inView: (f, now) =>
    sql`items.id IN (SELECT tr.item_id FROM triage_records tr WHERE ${visibleTriageRecord(f.tenantScope)} AND ${triageViewCondition(f.triage, f.triageUserId, now, f.includeRemoved)})`,
  listsRemovedItems: (view) => listsRemovedItems({ triage: view }),
  nearestDue: nearestDueSql,
  duePage: duePageSql,
  recordsCount: (f, now) => (triageOnly(f) ? triageOnlyCountSql(f, now) : null),
};
