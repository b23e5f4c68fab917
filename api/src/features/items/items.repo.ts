import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { itemOrder, itemWhere, searchPlan, sortDirectionSql, sortKeys, tsQuery, type ItemFilters, type ItemListRequest, type SearchPlan } from './item-query.js';
import { toUnifiedItem, unifiedItemSelectSql, type ToUnifiedItemOptions, type UnifiedItemRow } from './item-mapper.js';

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
 * The page query as a deferred join: the ids of the page are chosen first (an index-only scan of a
 * (date, id) index for the default and the filtered lists, however deep the page), then only those rows are read.
 * `columns` defaults to every column the mapper needs; the JSON list asks only for each row's version key.
 *
 * Searching (first RANK_WINDOW results): the window's rows get their exact-id flag and rank while they are read,
 * so ranking reads no row twice, and only the page's rows are read again for their columns.
 */
export function pageSql(q: ItemListRequest, now: Date, plan: SearchPlan | null, offset: number, columns: SQL = unifiedItemSelectSql): SQL {
  const order = itemOrder(q, plan);
  if (plan && offset + q.limit <= RANK_WINDOW) {
    const byDate = itemOrder(q, null);
    const keysOf = sortKeys(q);
    const dir = sortDirectionSql(q);
    const ids = sql`${sql.param(plan.ids)}::text[]`;
    // Must equal itemOrder(q, plan): exact id, ts_rank, the chosen sort, id.
    const sortColumns = sql.join(keysOf.map((k) => sql`${k.column} AS ${k.alias}`), sql`, `);
    const keys = sql`items.id, lower(items.external_id) = ANY(${ids}) AS exact, ts_rank(items.search_vector, ${tsQuery(plan)}) AS rank, ${sortColumns}`;
    const pageOrder = sql.join([sql`exact DESC`, sql`rank DESC`, ...keysOf.map((k) => sql`${k.alias} ${dir}`), sql`id ${dir}`], sql`, `);
    const outerOrder = sql.join([sql`page.exact DESC`, sql`page.rank DESC`, ...keysOf.map((k) => sql`page.${k.alias} ${dir}`), sql`page.id ${dir}`], sql`, `);
    // Exact id hits (removed items too: a share link must resolve) plus the newest RANK_WINDOW text matches.
    return sql`WITH candidates AS (
        (SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'exactIds')})
        UNION
        (SELECT ${keys} FROM items WHERE ${itemWhere(q, now, plan, 'rankWindow')} ORDER BY ${byDate} LIMIT ${RANK_WINDOW})),
      page AS (SELECT * FROM candidates ORDER BY ${pageOrder} LIMIT ${q.limit} OFFSET ${offset})
      SELECT ${columns} FROM page JOIN items ON items.id = page.id
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

/** The total's query. */
export function countSql(where: SQL): SQL {
  return sql`SELECT count(*)::int AS n FROM items WHERE ${where}`;
}

/**
 * JSON text of each mapped row, keyed by row id, row version and audience (moderator notes are staff-only), so a
 * list page whose rows were served before costs no row transfer, mapping, sanitising or serialising: the page query
 * returns only (id, version) and the full rows are read for the misses alone. A changed row has a new version and
 * is read and mapped again, so nothing stale is served. Bounded by total characters (LRU).
 */
class JsonRowCache {
  private readonly map = new Map<string, string>();
  private chars = 0;
  constructor(private readonly maxChars: number) {}
  get(key: string): string | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }
  set(key: string, json: string): void {
    if (this.maxChars <= 0) return;
    const old = this.map.get(key);
    if (old !== undefined) this.chars -= old.length;
    this.map.delete(key);
    this.map.set(key, json);
    this.chars += json.length;
    while (this.chars > this.maxChars && this.map.size) {
      const [k, v] = this.map.entries().next().value as [string, string];
      this.map.delete(k);
      this.chars -= v.length;
    }
  }
}

export interface JsonPage {
  /** Each item already serialised (`JSON.stringify(toUnifiedItem(row, …))`), in list order. */
  items: string[];
  total: number;
}

export interface ItemsRepoOptions {
  /** How long a computed total may be reused for the same filters (0 disables). */
  countCacheMs?: number;
  /** Characters of serialised items kept for reuse (0 disables); default 32 M (about 32 MB, some 15,000 items). */
  jsonCacheChars?: number;
}

/** Totals below this are cheap to count exactly every time; only larger ones are cached. */
const CACHE_COUNTS_FROM = 1000;
const COUNT_CACHE_ENTRIES = 500;

export function createItemsRepo(pool: pg.Pool, opts: ItemsRepoOptions = {}) {
  const countCacheMs = opts.countCacheMs ?? 15_000;
  const counts = new Map<string, { total: number; at: number }>();
  /** Counts being computed: concurrent requests for the same filters wait for the one count instead of each running it. */
  const counting = new Map<string, Promise<number>>();
  const jsonCache = new JsonRowCache(opts.jsonCacheChars ?? 32_000_000);

  /**
   * `key` names the filters (not the SQL): the SQL of a time-relative filter (changeTypes, timeline) holds `now`
   * and so differs on every request, which made those totals uncacheable. Within the 15 s reuse the window's
   * start moves by at most as much, the lag the reuse already allows.
   */
  async function count(where: SQL, key: string): Promise<number> {
    const hit = counts.get(key);
    if (hit && Date.now() - hit.at < countCacheMs) return hit.total;
    const running = counting.get(key);
    if (running) return running;
    const query = dialect.sqlToQuery(countSql(where));
    const promise = (async () => {
      const { rows } = await pool.query<{ n: number }>(query.sql, query.params as unknown[]);
      const total = rows[0]?.n ?? 0;
      if (countCacheMs > 0 && total >= CACHE_COUNTS_FROM) {
        counts.delete(key);
        counts.set(key, { total, at: Date.now() });
        for (const oldest of counts.keys()) {
          if (counts.size <= COUNT_CACHE_ENTRIES) break;
          counts.delete(oldest);
        }
      }
      return total;
    })();
    counting.set(key, promise);
    try {
      return await promise;
    } finally {
      counting.delete(key);
    }
  }

  /** Page rows (any columns) and the total: see `list`. */
  async function pageAndTotal<R extends pg.QueryResultRow>(q: ItemListRequest, now: Date, columns?: SQL): Promise<{ rows: R[]; total: number }> {
    const plan = searchPlan(q.search);
    const where = itemWhere(q, now, plan);
    const offset = (q.page - 1) * q.limit;
    // visitSince is part of the key: two users' "since my last visit" totals are different counts.
    const { page: _page, limit: _limit, sortField: _sortField, sortDirection: _sortDirection, ...filters } = q;
    const countKey = JSON.stringify(filters);
    const pageQuery = runSql<R>(pool, pageSql(q, now, plan, offset, columns));
    if (offset === 0) {
      const rows = await pageQuery;
      if (rows.length < q.limit) return { rows, total: rows.length };
      return { rows, total: await count(where, countKey) };
    }
    const [rows, total] = await Promise.all([pageQuery, count(where, countKey)]);
    return { rows, total: rows.length > 0 && rows.length < q.limit ? offset + rows.length : total };
  }

  return {
    /**
     * One page and the total. The page is always read fresh. The total is exact when the page proves it (a
     * non-empty page shorter than `limit` ends the result); otherwise it is counted in parallel with the page on a
     * second connection. Counting 100,000 matching rows costs tens of milliseconds, so large totals are reused for
     * the same filters for `countCacheMs` (15 s): after a sync or a moderation change the "T total items" line
     * may lag by that much, the rows never do.
     */
    async list(q: ItemListRequest, now: Date): Promise<ItemPage> {
      return pageAndTotal<UnifiedItemRow>(q, now);
    },

    /** The list's total for these filters (the same count and reuse as `list`). */
    async total(f: ItemFilters, now: Date): Promise<number> {
      const { sortField: _sortField, sortDirection: _sortDirection, ...filters } = f;
      return count(itemWhere(f, now, searchPlan(f.search)), JSON.stringify(filters));
    },

    /**
     * The same page as `list`, each item mapped for the audience and serialised: the page query returns only each
     * row's (id, version); rows served before come from the JSON cache, the others are read in full by id (one
     * query) and mapped. Same rows, order and total as `list`.
     */
    async listJson(q: ItemListRequest, now: Date, opts: ToUnifiedItemOptions): Promise<JsonPage> {
      const { rows: keys, total } = await pageAndTotal<{ id: number; version: string }>(q, now, versionColumns);
      const audience = opts.includeNotes ? 's' : 'p';
      const cacheKey = (k: { id: number; version: string }) => `${k.id}:${k.version}:${audience}`;
      const out: (string | undefined)[] = keys.map((k) => jsonCache.get(cacheKey(k)));
      const missing = keys.filter((_, i) => out[i] === undefined).map((k) => k.id);
      if (missing.length) {
        const rows = await runSql<UnifiedItemRow & { version: string }>(
          pool,
          sql`SELECT ${unifiedItemSelectSql}, items.xmin::text || ':' || items.content_hash AS "version" FROM items WHERE items.id = ANY(${sql.param(missing)}::int[])`,
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
      return { items: out.filter((j): j is string => j !== undefined), total };
    },

    /**
     * Every matching row in list order, in batches from a server-side cursor on a dedicated connection, so memory
     * stays flat however many rows match. Breaking out of the loop (client went away) closes the cursor and
     * returns the connection.
     */
    async *streamAll(f: ItemFilters, now: Date, batchSize = 1000): AsyncGenerator<UnifiedItemRow[]> {
      const plan = searchPlan(f.search);
      const { sql: text, params } = dialect.sqlToQuery(
        sql`SELECT ${unifiedItemSelectSql} FROM items WHERE ${itemWhere(f, now, plan)} ORDER BY ${itemOrder(f, plan)}`,
      );
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN READ ONLY');
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
