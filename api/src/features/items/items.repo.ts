import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import {
  itemOrder,
  itemWhere,
  searchPlan,
  sortDirectionSql,
  nullsLastSql,
  sortKeys,
  triageOnly,
  triageOnlyCountSql,
  duePageSql,
  tsQuery,
  type ItemFilters,
  type ItemListRequest,
  type SearchPlan,
} from './item-query.js';
import { toUnifiedItem, unifiedItemAnswerSql, unifiedItemSelectSql, type ToUnifiedItemOptions, type UnifiedItemRow } from './item-mapper.js';
import { currentDataVersion } from '../../db/data-version.js';
import { LruCache } from '../../lib/lru-cache.js';
import { viewTime } from './view-time.js';

const dialect = new PgDialect();

/**
 * Runs drizzle `sql` through the pg pool directly: node-postgres' own type parsing gives Date objects for
 * timestamptz (drizzle's driver hands raw strings to its column mappers, which hand-written SQL does not have).
 */
export async function runSql<T extends pg.QueryResultRow>(pool: pg.Pool | pg.PoolClient, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const result = await pool.query<T>(text, params as unknown[]);
  return result.rows;
}

export interface ItemPage {
  rows: UnifiedItemRow[];
  total: number;
  /** The total is the planner's estimate: a search with more than EXACT_SEARCH_TOTAL matches. */
  approximate: boolean;
}

/**
 * A search counted beside its page (one that can be an id, or a page past the rank window whose total is not
 * cached) is counted exactly up to this many matches; past it the total is PostgreSQL's estimate and marked approximate ("about
 * 13,000"). Counting every match of a common word visits every matching row (19,000 buffers for "teams" at 100,000
 * items, 200,000 at a million); counting the first 1,001 visits at most that many, and the estimate comes from the
 * table's statistics at no cost. A page inside the window under the margin counts every match in its own statement
 * (MatchesTotal).
 */
export const EXACT_SEARCH_TOTAL = 1000;

/**
 * A search the statistics put at more than EXACT_SEARCH_TOTAL × this many matches is not counted at all: its total is
 * the estimate. The planner multiplies the frequencies of the words, so it underestimates words that go together (a
 * phrase: counted, at worst needlessly) and overestimates words that rarely meet (a word of roadmap items with one of
 * Message Center posts). On real feed text at 100,000 items (docs/benchmarks.md, "Search totals on the feeds' own
 * words"; three sets of 2,500 searches), no search with at most EXACT_SEARCH_TOTAL matches was put above 4,016, and
 * none wrongly past a margin of 5 (4 marked one in one set); 6 keeps half as much again in hand. Each count this margin skips is a GIN bitmap of every match (10–25 ms).
 */
export const ESTIMATE_MARGIN = 6;

/** A list's total, and whether it is an estimate (see EXACT_SEARCH_TOTAL). */
export interface Total {
  n: number;
  approximate: boolean;
}

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
interface WindowTotal {
  windowTotal?: number;
}

/**
 * The column a search page asked with `countMatches` carries (`matchesTotal`): how many rows match the search and
 * the filters, counted below the window's limit. Asked only where the statistics put the matches under the margin
 * (EXACT_SEARCH_TOTAL × ESTIMATE_MARGIN): the planner then reads every match through the GIN bitmap to find the
 * window anyway, so counting them adds little, where a separate capped count would build the bitmap again. A common
 * word's page walks the date index and stops after the window; counting there would read every match.
 */
interface MatchesTotal {
  matchesTotal?: number;
}

/**
 * The page query as a deferred join: the ids of the page are chosen first (an index-only scan of a
 * (date, id) index for the default and the filtered lists, however deep the page), then only those rows are read.
 * `columns` defaults to every column the mapper needs; the JSON list asks only for each row's version key.
 *
 * Searching (first RANK_WINDOW results): the window's rows get their exact-id flag and rank while they are read,
 * so ranking reads no row twice, and only the page's rows are read again for their columns.
 */
export function pageSql(
  q: ItemListRequest,
  now: Date,
  plan: SearchPlan | null,
  offset: number,
  columns: SQL = unifiedItemSelectSql,
  opts: { countMatches?: boolean } = {},
): SQL {
  const order = itemOrder(q, plan, now);
  if (q.sortField === 'due' && !plan) {
    const dir = sortDirectionSql(q);
    return sql`WITH page AS (${duePageSql(q, now, q.limit, offset)})
      SELECT ${columns} FROM page JOIN items ON items.id = page.item_id ORDER BY page.due ${nullsLastSql(q)}, page.item_id ${dir}`;
  }
  if (plan && offset + q.limit <= RANK_WINDOW) {
    const byDate = itemOrder(q, null, now);
    const keysOf = sortKeys(q, now);
    const dir = sortDirectionSql(q);
    // Must equal itemOrder(q, plan): exact id, ts_rank, the chosen sort, id.
    const sortColumns = sql.join(
      keysOf.map((k) => sql`${k.column} AS ${k.alias}`),
      sql`, `,
    );
    const exact = plan.ids.length ? sql`lower(items.external_id) = ANY(${sql.param(plan.ids)}::text[])` : sql`false`;
    const keys = sql`items.id, ${exact} AS exact, ts_rank(items.search_vector, ${tsQuery(plan)}) AS rank, ${sortColumns}`;
    const pageOrder = sql.join([sql`exact DESC`, sql`rank DESC`, ...keysOf.map((k) => sql`${k.alias} ${k.direction}`), sql`id ${dir}`], sql`, `);
    const outerOrder = sql.join(
      [sql`page.exact DESC`, sql`page.rank DESC`, ...keysOf.map((k) => sql`page.${k.alias} ${k.direction}`), sql`page.id ${dir}`],
      sql`, `,
    );
    if (opts.countMatches && !plan.ids.length) {
      // The window and the number of every match in one statement (see MatchesTotal): the matches are counted below
      // the window's limit, and only the window's rows are ranked, each read again by id for its vector.
      const aliases = keysOf.map((k) => sql`m.${k.alias}`);
      return sql`WITH m AS (SELECT items.id, ${sortColumns}, (count(*) OVER ())::int AS matches FROM items
          WHERE ${itemWhere(q, now, plan, 'rankWindow')} ORDER BY ${byDate} LIMIT ${RANK_WINDOW}),
        candidates AS (SELECT m.id, false AS exact, ts_rank(items.search_vector, ${tsQuery(plan)}) AS rank, ${sql.join(aliases, sql`, `)}, m.matches
          FROM m JOIN items ON items.id = m.id),
        page AS (SELECT *, (count(*) OVER ())::int AS candidates_n FROM candidates ORDER BY ${pageOrder} LIMIT ${q.limit} OFFSET ${offset})
        SELECT ${columns}, page.candidates_n AS "windowTotal", page.matches AS "matchesTotal" FROM page JOIN items ON items.id = page.id
        ORDER BY ${outerOrder}`;
    }
    // Exact id hits (removed items too: a share link must resolve) plus the newest RANK_WINDOW text matches; a search
    // that cannot be an id has the window alone (no union to plan, sort and deduplicate).
    const window = sql`SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'rankWindow')} ORDER BY ${byDate} LIMIT ${RANK_WINDOW}`;
    const candidates = plan.ids.length ? sql`(SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'exactIds')}) UNION (${window})` : window;
    return sql`WITH candidates AS (${candidates}),
      page AS (SELECT *, (count(*) OVER ())::int AS candidates_n FROM candidates ORDER BY ${pageOrder} LIMIT ${q.limit} OFFSET ${offset})
      SELECT ${columns}, page.candidates_n AS "windowTotal" FROM page JOIN items ON items.id = page.id
      ORDER BY ${outerOrder}`;
  }
  return sql`SELECT ${columns} FROM items
    WHERE items.id IN (SELECT items.id FROM items WHERE ${itemWhere(q, now, plan)} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${offset})
    ORDER BY ${order}`;
}

/**
 * A row version: `xmin` is the id of the transaction that wrote this version of the row, so any UPDATE (a sync,
 * a moderation) gives the row a new key; the content hash is a second guard. Read as the raw xmin (freezing keeps it).
 */
const versionColumns = sql`items.id AS "id", items.xmin::text || ':' || items.content_hash AS "version"`;
/** The page's columns for `listJson`: the version, and the tenants of an item that has some (with its unified id). */
const jsonPageColumns = sql`${versionColumns}, CASE WHEN items.tenant_ids <> '{}'::integer[] THEN items.tenant_ids END AS "tenantIds",
  items.source::text || '-' || items.external_id AS "uid"`;

/** The total's query. */
export function countSql(where: SQL): SQL {
  return sql`SELECT count(*)::int AS n FROM items WHERE ${where}`;
}

/** Counts the rows of `where`, stopping after `upTo + 1` of them. */
export function cappedCountSql(where: SQL, upTo: number): SQL {
  return sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM items WHERE ${where} LIMIT ${upTo + 1}) AS capped`;
}

/** The planner's estimate of the rows of `where` (EXPLAIN only plans; nothing is read but the statistics). */
export async function estimateRows(pool: pg.Pool, where: SQL): Promise<number> {
  const { sql: text, params } = dialect.sqlToQuery(sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM items WHERE ${where}`);
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(text, params as unknown[]);
  return Math.round(rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

export interface JsonPage {
  /** Each item already serialised (`JSON.stringify(toUnifiedItem(row, …))`), in list order. */
  items: string[];
  total: number;
  /** The total is an estimate (see EXACT_SEARCH_TOTAL). */
  approximate: boolean;
  /** The tenants each item of the page that has some received (every tenant: the caller's view is applied after). */
  tenantsOf: Record<string, number[]>;
  /** The page's items: row id and unified id, in list order. */
  keys: { id: number; uid: string }[];
}

export interface StreamOptions {
  /** Rows per FETCH (default 1,000). */
  batchSize?: number;
  /** idle_in_transaction_session_timeout for the export's transaction (ms); none by default. */
  idleInTransactionMs?: number;
}

/**
 * The moment a read is for: the data version read before the data (db/data-version.ts) and the view's time
 * (view-time.ts). Caches of derived data are keyed by it, so what they hold is exact for that moment: a write
 * commits a new version and a time-relative view moves to a new time bucket, and both are new keys.
 */
export interface ReadPoint {
  version: number;
  /** The instant the view is computed for (the time bucket's start for a time-relative view). */
  now: Date;
  bucket: number | null;
}

/**
 * `version`: a data version already read for this request (after it arrived, before any of its data): the point takes
 * it instead of reading it again.
 */
export async function readPoint(pool: pg.Pool, filters: ItemFilters, now: Date, version?: number): Promise<ReadPoint> {
  return { version: version ?? (await currentDataVersion(pool)), ...viewTime(filtersOf(filters), now) };
}

export interface ItemsRepoOptions {
  /** Totals kept (by filters, data version and time bucket); 0 disables. */
  countCacheEntries?: number;
  /** Characters of serialised items kept for reuse (0 disables); default 32 M (about 32 MB, some 15,000 items). */
  jsonCacheChars?: number;
}

/** The filters a total depends on: everything but paging and order. */
function filtersOf(q: ItemFilters): Omit<ItemFilters, 'sortField' | 'sortDirection'> {
  const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, ...filters } = q as ItemListRequest;
  return filters;
}

export function createItemsRepo(pool: pg.Pool, opts: ItemsRepoOptions = {}) {
  /**
   * Totals by (filters, data version, time bucket): exact for as long as the key can be asked for, so no expiry;
   * concurrent requests for the same key share one count (LruCache.load). visitSince is in the filters: two users'
   * "since my last visit" totals are different counts.
   */
  const counts = new LruCache<Total>({ entries: opts.countCacheEntries ?? 2000, weight: opts.countCacheEntries ?? 2000 });
  const jsonCache = new LruCache<string>({ entries: 100_000, weight: opts.jsonCacheChars ?? 32_000_000, weigh: (json) => json.length });

  const countKey = (filters: ReturnType<typeof filtersOf>, point: ReadPoint, exact: boolean) => JSON.stringify([filters, point.version, point.bucket, exact]);

  /**
   * The total for the filters at `point`. A search's total is exact up to EXACT_SEARCH_TOTAL matches and estimated
   * past it, unless `exact` (a count someone acts on, like the changes since the last visit). `estimated`: the
   * planner's estimate of the same filters, when the caller has read it already.
   */
  function count(f: ItemFilters, point: ReadPoint, exact = false, estimated?: number): Promise<Total> {
    const filters = filtersOf(f);
    return counts.load(countKey(filters, point, exact), async () => {
      const plan = searchPlan(filters.search);
      const run = async (query: SQL) => (await runSql<{ n: number }>(pool, query))[0]?.n ?? 0;
      if (triageOnly(filters)) return { n: await run(triageOnlyCountSql(filters, point.now)), approximate: false };
      const where = itemWhere(filters, point.now, plan);
      if (!plan || exact) return { n: await run(countSql(where)), approximate: false };
      const estimate = estimated ?? (await estimateRows(pool, where));
      // Far past the threshold by the statistics: nothing to count. Even the first 1,001 matches of a common word
      // cost the whole bitmap of its matches (48,000 entries, ~24 ms at 100,000 items).
      if (estimate > EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN) return { n: estimate, approximate: true };
      const upTo = await run(cappedCountSql(itemWhere(filters, point.now, plan, 'counted'), EXACT_SEARCH_TOTAL));
      if (upTo <= EXACT_SEARCH_TOTAL) return { n: upTo, approximate: false };
      // More than the threshold for sure, whatever the statistics say.
      return { n: Math.max(EXACT_SEARCH_TOTAL + 1, estimate), approximate: true };
    });
  }

  /** Page rows (any columns) and the total at `point`: see `list`. */
  async function pageAndTotal<R extends pg.QueryResultRow>(q: ItemListRequest, point: ReadPoint, columns?: SQL): Promise<{ rows: R[] } & Total> {
    const plan = searchPlan(q.search);
    const offset = (q.page - 1) * q.limit;
    const readPage = (countMatches = false) =>
      runSql<R>(pool, pageSql(q, point.now, plan, offset, columns, { countMatches })).then((rows) => {
        // Only the page's own columns go on; a ranked page's first row says how many candidates its window held,
        // and, when asked, how many rows match.
        const { windowTotal: candidates, matchesTotal: matches } = (rows[0] ?? {}) as WindowTotal & MatchesTotal;
        for (const row of rows) {
          delete (row as WindowTotal).windowTotal;
          delete (row as MatchesTotal).matchesTotal;
        }
        return { rows, matches, windowTotal: candidates !== undefined && candidates < RANK_WINDOW ? candidates : undefined };
      });
    // A page inside the rank window of a search that cannot be an id, its total not known yet (the first page, or a
    // later one whose total left the cache or whose data moved): the statistics decide how its total is found, before
    // its page is read. Under the margin its page's plan reads every match anyway (the planner expects few), so the
    // page counts them in the same statement: an exact total at any size, the same as its first page said, and no
    // second pass over the matches. Past it the estimate is the total, as `count` would find it.
    let estimate: number | undefined;
    const filters = filtersOf(q);
    const key = countKey(filters, point, false);
    if (plan && !plan.ids.length && offset + q.limit <= RANK_WINDOW && !counts.get(key)) {
      estimate = await estimateRows(pool, itemWhere(filters, point.now, plan));
      if (estimate <= EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN) {
        const { rows, matches } = await readPage(true);
        // An empty later page (past the last match) has no row to carry the count.
        if (matches === undefined && offset > 0) return { rows, ...(await count(q, point, false, estimate)) };
        const total = { n: matches ?? 0, approximate: false };
        counts.set(key, total);
        return { rows, ...total };
      }
    }
    const pageQuery = readPage();
    if (offset === 0) {
      // A search's total starts with its page: its estimate (unless read above) and capped count (up to ~30 ms for a
      // search the statistics put under the margin) overlap the page instead of following it. A page that proves its total
      // answers without waiting for them; what they count is kept for the next pages.
      const searchTotal = plan ? count(q, point, false, estimate) : null;
      searchTotal?.catch(() => undefined);
      const { rows, windowTotal } = await pageQuery;
      if (rows.length < q.limit) return { rows, n: rows.length, approximate: false };
      if (windowTotal !== undefined) return { rows, n: windowTotal, approximate: false };
      return { rows, ...(await (searchTotal ?? count(q, point))) };
    }
    const [{ rows }, total] = await Promise.all([pageQuery, count(q, point, false, estimate)]);
    // A non-empty page shorter than the limit ends the result: the total is known exactly.
    if (rows.length > 0 && rows.length < q.limit) return { rows, n: offset + rows.length, approximate: false };
    // A full page at or past an estimate: there is at least one more page.
    if (total.approximate && rows.length === q.limit && offset + rows.length >= total.n) return { rows, n: offset + rows.length + 1, approximate: true };
    return { rows, ...total };
  }

  return {
    /**
     * One page and the total. The page is read fresh; the total is exact when the page proves it (a non-empty page
     * shorter than `limit` ends the result), counted by the page's own statement (a search page inside the rank
     * window, under the margin), otherwise counted in parallel with the page on a second connection, or taken from the totals counted
     * before for the same filters at the same data version and time bucket (so it is never stale: any committed
     * write moves the version).
     */
    async list(q: ItemListRequest, now: Date): Promise<ItemPage> {
      const { rows, n, approximate } = await pageAndTotal<UnifiedItemRow>(q, await readPoint(pool, q, now));
      return { rows, total: n, approximate };
    },

    /** The list's exact total for these filters (counted and reused as `list` does, never estimated). */
    async total(f: ItemFilters, now: Date): Promise<number> {
      return (await count(f, await readPoint(pool, f, now), true)).n;
    },

    /**
     * The same page as `list` at `point`, each item mapped for the audience and serialised: the page query returns
     * only each row's (id, version); rows served before come from the JSON cache, the others are read in full by id
     * (one query) and mapped. Same rows, order and total as `list`.
     */
    async listJson(q: ItemListRequest, point: ReadPoint, opts: ToUnifiedItemOptions): Promise<JsonPage> {
      const {
        rows: keys,
        n: total,
        approximate,
      } = await pageAndTotal<{ id: number; version: string; tenantIds: number[] | null; uid: string | null }>(q, point, jsonPageColumns);
      const tenantsOf: Record<string, number[]> = {};
      for (const k of keys) if (k.uid && k.tenantIds) tenantsOf[k.uid] = k.tenantIds;
      const audience = opts.includeNotes ? 's' : 'p';
      const cacheKey = (k: { id: number; version: string }) => `${k.id}:${k.version}:${audience}`;
      const out: (string | undefined)[] = keys.map((k) => jsonCache.get(cacheKey(k)));
      const missing = keys.filter((_, i) => out[i] === undefined).map((k) => k.id);
      if (missing.length) {
        const rows = await runSql<UnifiedItemRow & { version: string }>(
          pool,
          sql`SELECT ${unifiedItemAnswerSql}, items.xmin::text || ':' || items.content_hash AS "version" FROM items WHERE items.id = ANY(${sql.param(missing)}::int[])`,
        );
        const byId = new Map(rows.map((r) => [r.id, r]));
        keys.forEach((k, i) => {
          if (out[i] !== undefined) return;
          const row = byId.get(k.id);
          // Deleted between the two queries (items are never deleted, only marked removed): leave it out.
          if (!row) return;
          const { version, ...item } = row;
          const json = JSON.stringify(toUnifiedItem(item, opts));
          // Cached under the version just read (a row updated in between is served in its newest version).
          jsonCache.set(`${row.id}:${version}:${audience}`, json);
          out[i] = json;
        });
      }
      return {
        items: out.filter((j): j is string => j !== undefined),
        total,
        approximate,
        tenantsOf,
        keys: keys.flatMap((k) => (k.uid ? [{ id: k.id, uid: k.uid }] : [])),
      };
    },

    /**
     * Every matching row in list order, in batches from a server-side cursor on a dedicated connection, so memory
     * stays flat however many rows match. Breaking out of the loop (client went away) closes the cursor and
     * returns the connection.
     */
    async *streamAll(f: ItemFilters, now: Date, opts: StreamOptions = {}): AsyncGenerator<UnifiedItemRow[]> {
      const batchSize = opts.batchSize ?? 1000;
      const plan = searchPlan(f.search);
      // The list's instant for a time-relative view (view-time.ts), so the export holds exactly the rows it counts.
      const at = viewTime(filtersOf(f), now).now;
      const { sql: text, params } = dialect.sqlToQuery(
        sql`SELECT ${unifiedItemSelectSql} FROM items WHERE ${itemWhere(f, at, plan)} ORDER BY ${itemOrder(f, plan, at)}`,
      );
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN READ ONLY');
        // Server-side backstop for a download whose client stopped reading: the transaction sits idle while the
        // response waits for the socket, and PostgreSQL ends it (and frees the connection) after this long.
        if (opts.idleInTransactionMs) await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.round(opts.idleInTransactionMs)}`);
        await client.query(`DECLARE export_cursor NO SCROLL CURSOR FOR ${text}`, params as unknown[]);
        for (;;) {
          const { rows } = await client.query<UnifiedItemRow>(`FETCH ${Number(batchSize)} FROM export_cursor`);
          if (rows.length) yield rows;
          if (rows.length < batchSize) break;
        }
        await client.query('COMMIT');
      } catch (err) {
        broken = true;
        throw err;
      } finally {
        if (!broken) {
          // Early exit from the consumer: end the transaction (closes the cursor) before reuse.
          await client.query('ROLLBACK').catch(() => undefined);
        }
        // A failed connection is discarded rather than returned to the pool mid-transaction.
        client.release(broken);
      }
    },
  };
}
export type ItemsRepo = ReturnType<typeof createItemsRepo>;
