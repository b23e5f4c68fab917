import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { itemOrder, itemWhere, searchPlan, type ItemFilters, type ItemListRequest, type SearchPlan } from './item-query.js';
import { createSearchStatements } from './search-statements.js';
import type { TriageLens } from './triage-lens.js';
import { cappedCountSql, countSql, ESTIMATE_MARGIN, EXACT_SEARCH_TOTAL, pageSql, RANK_WINDOW, type CarriedColumns, type WindowTotal } from './list-page-sql.js';
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

/** The planner's estimate of the rows of `where` (EXPLAIN only plans; nothing is read but the statistics). */
export async function estimateRows(pool: pg.Pool, where: SQL): Promise<number> {
  const { sql: text, params } = dialect.sqlToQuery(sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM items WHERE ${where}`);
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(text, params as unknown[]);
  return Math.round(rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

/**
 * A row version: `xmin` is the id of the transaction that wrote this version of the row, so any UPDATE (a sync,
 * a moderation) gives the row a new key; the content hash is a second guard. Read as the raw xmin (freezing keeps it).
 */
const rowVersion = sql`items.xmin::text || ':' || items.content_hash AS "version"`;

/**
 * The statement reading a page's rows by id for the JSON list, its text built once: it only ever differs in the ids,
 * and building its forty columns with drizzle on every answer cost more than running it.
 */
const ROWS_BY_ID = (() => {
  const ids: number[] = [];
  const { sql: text, params } = dialect.sqlToQuery(
    sql`SELECT ${unifiedItemAnswerSql}, ${rowVersion} FROM items WHERE items.id = ANY(${sql.param(ids)}::int[])`,
  );
  if (params.length !== 1 || params[0] !== ids) throw new Error('the rows-by-id statement must take the ids as its only parameter');
  return text;
})();

export interface ItemPage {
  rows: UnifiedItemRow[];
  total: number;
  /** The total is the planner's estimate: a search with more than EXACT_SEARCH_TOTAL matches. */
  approximate: boolean;
}

/** A list's total, and whether it is an estimate (see EXACT_SEARCH_TOTAL). */
export interface Total {
  n: number;
  approximate: boolean;
}

/** What `listJson` reads of a page's rows besides the id: the version, and the tenants of an item that has some (with its unified id). */
const jsonPageKeys = sql`${rowVersion}, CASE WHEN items.tenant_ids <> '{}'::integer[] THEN items.tenant_ids END AS "tenantIds",
  items.source::text || '-' || items.external_id AS "uid"`;
/** The page's columns for `listJson`. */
const jsonPageColumns = sql`items.id AS "id", ${jsonPageKeys}`;
/** The same columns carried through a ranked search's window (CarriedColumns): its page reads no row twice. */
const jsonPageCarried: CarriedColumns = {
  window: jsonPageKeys,
  page: sql`page.id AS "id", page."version", page."tenantIds", page."uid"`,
};

export interface JsonPage {
  /**
   * Each item already serialised (`JSON.stringify(toUnifiedItem(row, …))` as UTF-8), in list order: kept as bytes, so
   * an answer is put together by copying them (encoding a page of text with typographic quotes and dashes to UTF-8
   * again for every new answer cost as much as a page's database work: docs/benchmarks.md, "The api's speed back").
   */
  items: Buffer[];
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

export interface ItemsRepoOptions {
  /** Totals kept (by filters, data version and time bucket); 0 disables. */
  countCacheEntries?: number;
  /** Bytes of serialised items (UTF-8) kept for reuse (0 disables); default 32 M (32 MB, some 15,000 items). */
  jsonCacheChars?: number;
  /**
   * Triage as the list sees it (items/triage-lens.ts): the triage views and the due sort. Without it the list answers
   * neither (a request for one fails), which is all the MCP tools need.
   */
  triage?: TriageLens;
}

/** The filters a total depends on: everything but paging and order. */
function filtersOf(q: ItemFilters): Omit<ItemFilters, 'sortField' | 'sortDirection'> {
  const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, ...filters } = q as ItemListRequest;
  return filters;
}

export function createItemsRepo(pool: pg.Pool, opts: ItemsRepoOptions = {}) {
  const lens = opts.triage;
  const searchStatements = createSearchStatements(dialect);

  async function readPoint(filters: ItemFilters, now: Date): Promise<ReadPoint> {
    return { version: await currentDataVersion(pool), ...viewTime(filters, now, lens) };
  }

  /**
   * Totals by (filters, data version, time bucket): exact for as long as the key can be asked for, so no expiry;
   * concurrent requests for the same key share one count (LruCache.load). visitSince is in the filters: two users'
   * "since my last visit" totals are different counts.
   */
  const counts = new LruCache<Total>({ entries: opts.countCacheEntries ?? 2000, weight: opts.countCacheEntries ?? 2000 });
  const jsonCache = new LruCache<Buffer>({ entries: 100_000, weight: opts.jsonCacheChars ?? 32_000_000, weigh: (json) => json.length });

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
      const byRecords = lens?.recordsCount(filters, point.now);
      if (byRecords) return { n: await run(byRecords), approximate: false };
      const where = itemWhere(filters, point.now, plan, 'all', lens);
      if (!plan || exact) return { n: await run(countSql(where)), approximate: false };
      const estimate = estimated ?? (await estimateRows(pool, where));
      // Far past the threshold by the statistics: nothing to count. Even the first 1,001 matches of a common word
      // cost the whole bitmap of its matches (48,000 entries, ~24 ms at 100,000 items).
      if (estimate > EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN) return { n: estimate, approximate: true };
      const upTo = await run(cappedCountSql(itemWhere(filters, point.now, plan, 'counted', lens), EXACT_SEARCH_TOTAL));
      if (upTo <= EXACT_SEARCH_TOTAL) return { n: upTo, approximate: false };
      // More than the threshold for sure, whatever the statistics say.
      return { n: Math.max(EXACT_SEARCH_TOTAL + 1, estimate), approximate: true };
    });
  }

  /** Page rows (any columns) and the total at `point`: see `list`. */
  async function pageAndTotal<R extends pg.QueryResultRow>(
    q: ItemListRequest,
    point: ReadPoint,
    columns?: SQL,
    carried?: CarriedColumns,
  ): Promise<{ rows: R[] } & Total> {
    const plan = searchPlan(q.search);
    const offset = (q.page - 1) * q.limit;
    const build = (search: string | undefined, p: SearchPlan | null, at: Date) => pageSql({ ...q, search }, at, p, offset, columns, { triage: lens, carried });
    // A search's statement from its shape's, built once (search-statements.ts); the list's own pages are cached whole.
    const tag = columns === undefined ? 'rows' : columns === jsonPageColumns ? 'json' : null;
    const statement =
      plan && tag
        ? searchStatements(JSON.stringify([tag, { ...q, search: undefined }, offset]), q.search ?? '', plan, point.now, build)
        : dialect.sqlToQuery(build(q.search, plan, point.now));
    const readPage = () =>
      pool.query<R>(statement.sql, statement.params).then(({ rows }) => {
        // Only the page's own columns go on; a ranked page's first row says how many candidates its window held.
        const { windowTotal: candidates } = (rows[0] ?? {}) as WindowTotal;
        for (const row of rows) delete (row as WindowTotal).windowTotal;
        return { rows, windowTotal: candidates !== undefined && candidates < RANK_WINDOW ? candidates : undefined };
      });
    // A page inside the rank window of a search that cannot be an id, its total not known yet (the first page, or a
    // later one whose total left the cache or whose data moved): the page is read first. A window that is not full
    // holds every match, so its size is the exact total and nothing more is asked (most searches: on the feeds' own
    // text nearly all). A full window leaves it to the statistics, as before: under the margin every match is counted
    // (an exact total at any size), past it the estimate is the total, as `count` would find it.
    let estimate: number | undefined;
    let pageRead: ReturnType<typeof readPage> | undefined;
    const filters = filtersOf(q);
    const key = countKey(filters, point, false);
    if (plan && !plan.ids.length && offset + q.limit <= RANK_WINDOW && !counts.get(key)) {
      const read = await readPage();
      const { rows, windowTotal } = read;
      if (windowTotal !== undefined || (offset === 0 && rows.length === 0)) {
        const total = { n: windowTotal ?? 0, approximate: false };
        counts.set(key, total);
        return { rows, ...total };
      }
      estimate = await estimateRows(pool, itemWhere(filters, point.now, plan, 'all', lens));
      if (estimate <= EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN && rows.length) {
        const total = {
          n: (await runSql<{ n: number }>(pool, countSql(itemWhere(filters, point.now, plan, 'rankWindow', lens))))[0]?.n ?? 0,
          approximate: false,
        };
        counts.set(key, total);
        return { rows, ...total };
      }
      pageRead = Promise.resolve(read);
    }
    const pageQuery = pageRead ?? readPage();
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
    /** The moment a read of these filters is for (ReadPoint). */
    readPoint,

    /**
     * One page and the total. The page is read fresh; the total is exact when the page proves it (a non-empty page
     * shorter than `limit` ends the result, or a search's rank window that is not full), counted after it (a full window
     * under the margin), otherwise counted in parallel with the page on a second connection, or taken from the totals counted
     * before for the same filters at the same data version and time bucket (so it is never stale: any committed
     * write moves the version).
     */
    async list(q: ItemListRequest, now: Date): Promise<ItemPage> {
      const { rows, n, approximate } = await pageAndTotal<UnifiedItemRow>(q, await readPoint(q, now));
      return { rows, total: n, approximate };
    },

    /** The list's exact total for these filters (counted and reused as `list` does, never estimated). */
    async total(f: ItemFilters, now: Date): Promise<number> {
      return (await count(f, await readPoint(f, now), true)).n;
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
      } = await pageAndTotal<{ id: number; version: string; tenantIds: number[] | null; uid: string | null }>(q, point, jsonPageColumns, jsonPageCarried);
      const tenantsOf: Record<string, number[]> = {};
      for (const k of keys) if (k.uid && k.tenantIds) tenantsOf[k.uid] = k.tenantIds;
      const audience = opts.includeNotes ? 's' : 'p';
      const cacheKey = (k: { id: number; version: string }) => `${k.id}:${k.version}:${audience}`;
      const out: (Buffer | undefined)[] = keys.map((k) => jsonCache.get(cacheKey(k)));
      const missing = keys.filter((_, i) => out[i] === undefined).map((k) => k.id);
      if (missing.length) {
        const { rows } = await pool.query<UnifiedItemRow & { version: string }>(ROWS_BY_ID, [missing]);
        const byId = new Map(rows.map((r) => [r.id, r]));
        keys.forEach((k, i) => {
          if (out[i] !== undefined) return;
          const row = byId.get(k.id);
          // Deleted between the two queries (items are never deleted, only marked removed): leave it out.
          if (!row) return;
          const { version, ...item } = row;
          const json = Buffer.from(JSON.stringify(toUnifiedItem(item, opts)));
          // Cached under the version just read (a row updated in between is served in its newest version).
          jsonCache.set(`${row.id}:${version}:${audience}`, json);
          out[i] = json;
        });
      }
      return {
        items: out.filter((j): j is Buffer => j !== undefined),
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
      const at = viewTime(filtersOf(f), now, lens).now;
      const { sql: text, params } = dialect.sqlToQuery(
        sql`SELECT ${unifiedItemSelectSql} FROM items WHERE ${itemWhere(f, at, plan, 'all', lens)} ORDER BY ${itemOrder(f, plan, at, lens)}`,
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
