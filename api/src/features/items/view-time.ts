import { PgDialect } from 'drizzle-orm/pg-core';
import { LruCache } from '../../lib/lru-cache.js';
import { itemWhere, searchPlan, type ItemWhereFilters } from './item-query.js';
import type { TriageLens } from './triage-lens.js';

const dialect = new PgDialect();
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Views whose rows depend on the time as well as the data ("new in the last 7 days", "changed in the last day",
 * "release date moved in the last 30 days", "active in the last 90 days") are computed for the start of a time
 * bucket of this length: every process answers such a view identically within a bucket, so an answer or a total
 * cached under (view, data version, bucket) is exact for the instant it names, and its window edge is never more
 * than this far behind the clock. The feeds, the list, its totals and the export share it.
 */
export const TIME_BUCKET_MS = 60_000;

/**
 * True when the view's rows depend on the time as well as the data: compared by the SQL itself, so any filter added
 * to the list later that uses `now` is recognised without being listed here. `triage`: the list's triage lens, for a
 * triage view (whose overdue and due-soon views move with the day).
 */
export function isTimeRelative(filters: ItemWhereFilters, now: Date, triage?: TriageLens): boolean {
  const plan = searchPlan(filters.search);
  const at = (d: Date) => JSON.stringify(dialect.sqlToQuery(itemWhere(filters, d, plan, 'all', triage)).params);
  return at(now) !== at(new Date(now.getTime() + DAY_MS));
}

export interface ViewTime {
  /** The time bucket the view is computed for, or null when its rows do not depend on the time. */
  bucket: number | null;
  /** The instant to compute the view for: the bucket's start, or `now` for a view that does not use it. */
  now: Date;
}

/**
 * Whether a filter set is time-relative never changes, so it is worked out once per filter set (it builds SQL twice).
 * The search words are left out of the key and of the test: the text search compares no date, so they never make a
 * view time-relative, and a key with them would make every new search build that SQL twice (a twentieth of a search's
 * CPU, docs/benchmarks.md, "The api's speed back").
 */
const relativeByFilters = new LruCache<boolean>({ entries: 5000, weight: 5000 });
/** The same answer by filter object, for a frozen one handed again for the same view (the list's lane's parsed queries). */
const relativeByObject = new WeakMap<object, boolean>();

/** A view's filters; paging and order may come along (a whole list request), they change nothing here. */
type ViewFilters = ItemWhereFilters & { page?: unknown; limit?: unknown; sortField?: unknown; sortDirection?: unknown };

function relativeView(filters: ViewFilters, now: Date, triage?: TriageLens): boolean {
  const known = relativeByObject.get(filters);
  if (known !== undefined) return known;
  const { search: _search, page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, ...withoutSearch } = filters;
  const key = JSON.stringify(withoutSearch);
  let relative = relativeByFilters.get(key);
  if (relative === undefined) {
    relative = isTimeRelative(withoutSearch, now, triage);
    relativeByFilters.set(key, relative);
  }
  if (Object.isFrozen(filters)) relativeByObject.set(filters, relative);
  return relative;
}

export function viewTime(filters: ViewFilters, now: Date, triage?: TriageLens): ViewTime {
  if (!relativeView(filters, now, triage)) return { bucket: null, now };
  const bucket = Math.floor(now.getTime() / TIME_BUCKET_MS);
  return { bucket, now: new Date(bucket * TIME_BUCKET_MS) };
}
