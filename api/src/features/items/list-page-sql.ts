import { sql, type SQL } from 'drizzle-orm';
import { itemOrder, itemWhere, nullsLastSql, sortDirectionSql, sortKeys, tsQuery, type ItemListRequest, type SearchPlan } from './item-query.js';
import { requireLens, type TriageLens } from './triage-lens.js';
import { relevancePageSql } from './relevance-page-sql.js';
import { unifiedItemSelectSql } from './item-mapper.js';

// The statements of a list page and of its total: the deferred join, the rank window of a search and the capped
// count. The items repo runs them (and asks the planner's estimate); the benches explain them.

/**
 * A search counted beside its page (one that can be an id, or a page past the rank window whose total is not
 * cached) is counted exactly up to this many matches; past it the total is PostgreSQL's estimate and marked approximate ("about
 * 13,000"). Counting every match of a common word visits every matching row (19,000 buffers for "teams" at 100,000
 * items, 200,000 at a million); counting the first 1,001 visits at most that many, and the estimate comes from the
 * table's statistics at no cost. A page inside the window needs no count when its window is not full (WindowTotal); a
 * full one under the margin has every match counted (countSql).
 */
export const EXACT_SEARCH_TOTAL = 1000;

/**
 * A search the statistics put at more than EXACT_SEARCH_TOTAL × this many matches is not counted at all: its total is
 * the estimate. The planner multiplies the frequencies of the words, so it underestimates words that go together (a
 * phrase: counted, at worst needlessly) and overestimates words that rarely meet (a word of roadmap items with one of
 * Message Center posts). On real feed text at 100,000 items (docs/benchmarks.md, "Search totals on the feeds' own
 * words"; three sets of 2,500 searches), no search with at most EXACT_SEARCH_TOTAL matches was put above 4,016, and
 * none wrongly past a margin of 5 (4 marked one in one set); 6 keeps half as much again in hand. Each count this margin skips is a GIN bitmap of every match (10–25 ms).
 * The estimate is read only for a page whose window is full: fewer candidates are every match, counted already.
 */
export const ESTIMATE_MARGIN = 6;

/**
 * Relevance is ranked among the RANK_WINDOW best candidates by the chosen sort (newest first by default) plus any
 * exact id hit, so a search for a common word does not read and rank every one of tens of thousands of matches:
 * finding the window walks the date index and tests each row's search vector, so its cost grows with the window
 * (1,000 cost 12,000–23,000 buffers per search on the 100,000-item bench; 200 costs 2,000–4,000).
 * Pages beyond the window (past result 200, page 5 at 50 per page; rare) rank all matches.
 */
export const RANK_WINDOW = 200;

/**
 * The column a ranked search page carries (`windowTotal`): how many candidates the window held. Fewer than
 * RANK_WINDOW means the window was not full, so the candidates are every match (the exact ids and all text matches)
 * and their number is the exact total: no estimate and no count to run.
 */
export interface WindowTotal {
  windowTotal?: number;
}

/**
 * Columns a ranked search page carries from its window instead of reading its rows again: `window`, expressions over
 * `items` with their aliases, read with each candidate; `page`, the page's columns over those aliases (`page.id`,
 * `page."version"`). For a page whose columns are few and small (the JSON list's row versions), this saves a second
 * read of the page's rows and, more, the planning of a second scan of items (half of a search's planning time).
 */
export interface CarriedColumns {
  window: SQL;
  page: SQL;
}

/**
 * The page query as a deferred join: the ids of the page are chosen first (an index-only scan of a
 * (date, id) index for the default and the filtered lists, however deep the page), then only those rows are read.
 * `columns` defaults to every column the mapper needs; the JSON list asks only for each row's version key, which a
 * ranked search page carries through its window (`carried`).
 *
 * Searching (first RANK_WINDOW results): the window's rows get their exact-id flag and rank while they are read,
 * so ranking reads no row twice, and only the page's rows are read again for their columns. `triage` answers a triage
 * view and the due sort (items/triage-lens.ts). The relevance sort walks its levels (relevance-page-sql.ts).
 */
export function pageSql(
  q: ItemListRequest,
  now: Date,
  plan: SearchPlan | null,
  offset: number,
  columns: SQL = unifiedItemSelectSql,
  opts: { triage?: TriageLens; carried?: CarriedColumns } = {},
): SQL {
  const lens = opts.triage;
  const order = itemOrder(q, plan, now, lens);
  if (q.sortField === 'due' && !plan) {
    const dir = sortDirectionSql(q);
    return sql`WITH page AS (${requireLens(lens, 'The due sort').duePage(q, now, q.limit, offset)})
      SELECT ${columns} FROM page JOIN items ON items.id = page.item_id ORDER BY page.due ${nullsLastSql(q)}, page.item_id ${dir}`;
  }
  if (q.sortField === 'relevance' && !plan) {
    const page = relevancePageSql(q, now, q.limit, offset, lens);
    const dir = sortDirectionSql(q);
    if (page)
      return sql`WITH page AS (${page})
        SELECT ${columns} FROM page JOIN items ON items.id = page.item_id ORDER BY page.lvl ${nullsLastSql(q)}, page.sort_at ${dir}, page.item_id ${dir}`;
  }
  if (plan && offset + q.limit <= RANK_WINDOW) {
    const byDate = itemOrder(q, null, now, lens);
    const keysOf = sortKeys(q, now, lens);
    const dir = sortDirectionSql(q);
    // Must equal itemOrder(q, plan): exact id, ts_rank, the chosen sort, id.
    const sortColumns = sql.join(
      keysOf.map((k) => sql`${k.column} AS ${k.alias}`),
      sql`, `,
    );
    const exact = plan.ids.length ? sql`lower(items.external_id) = ANY(${sql.param(plan.ids)}::text[])` : sql`false`;
    const { carried } = opts;
    const keys = sql`items.id, ${exact} AS exact, ts_rank(items.search_vector, ${tsQuery(plan)}) AS rank, ${sortColumns}${carried ? sql`, ${carried.window}` : sql``}`;
    const pageOrder = sql.join([sql`exact DESC`, sql`rank DESC`, ...keysOf.map((k) => sql`${k.alias} ${k.direction}`), sql`id ${dir}`], sql`, `);
    const outerOrder = sql.join(
      [sql`page.exact DESC`, sql`page.rank DESC`, ...keysOf.map((k) => sql`page.${k.alias} ${k.direction}`), sql`page.id ${dir}`],
      sql`, `,
    );
    // Exact id hits (removed items too: a share link must resolve) plus the newest RANK_WINDOW text matches; a search
    // that cannot be an id has the window alone (no union to plan, sort and deduplicate).
    const window = sql`SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'rankWindow', lens)} ORDER BY ${byDate} LIMIT ${RANK_WINDOW}`;
    const candidates = plan.ids.length ? sql`(SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'exactIds', lens)}) UNION (${window})` : window;
    const rows = carried
      ? sql`${carried.page}, page.candidates_n AS "windowTotal" FROM page`
      : sql`${columns}, page.candidates_n AS "windowTotal" FROM page JOIN items ON items.id = page.id`;
    return sql`WITH candidates AS (${candidates}),
      page AS (SELECT *, (count(*) OVER ())::int AS candidates_n FROM candidates ORDER BY ${pageOrder} LIMIT ${q.limit} OFFSET ${offset})
      SELECT ${rows}
      ORDER BY ${outerOrder}`;
  }
  return sql`SELECT ${columns} FROM items
    WHERE items.id IN (SELECT items.id FROM items WHERE ${itemWhere(q, now, plan, 'all', lens)} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${offset})
    ORDER BY ${order}`;
}

/** The total's query. */
export function countSql(where: SQL): SQL {
  return sql`SELECT count(*)::int AS n FROM items WHERE ${where}`;
}

/** Counts the rows of `where`, stopping after `upTo + 1` of them. */
export function cappedCountSql(where: SQL, upTo: number): SQL {
  return sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM items WHERE ${where} LIMIT ${upTo + 1}) AS capped`;
}
