import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { ItemListQuery } from '@radar/contracts';
import { itemOrder, itemWhere, searchPlan, type ItemFilters, type SearchPlan } from './item-query.js';
import { unifiedItemSelectSql, type UnifiedItemRow } from './item-mapper.js';

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
 * exact id hit, so a search for a very common word does not rank every one of tens of thousands of matches.
 * Pages beyond the window (rare) rank all matches.
 */
export const RANK_WINDOW = 1000;

/**
 * The page query as a deferred join: the ids of the page are chosen first (an index-only scan of the
 * (date, id) index for the default list, however deep the page), then only those 50 rows are read in full.
 */
export function pageSql(q: ItemListQuery, plan: SearchPlan | null, where: SQL, offset: number): SQL {
  const order = itemOrder(q, plan);
  if (plan && offset + q.limit <= RANK_WINDOW) {
    const byDate = itemOrder(q, null);
    return sql`WITH candidates AS (
        (SELECT items.id FROM items WHERE ${where} AND lower(items.external_id) = ANY(${sql.param(plan.ids)}::text[]))
        UNION
        (SELECT items.id FROM items WHERE ${where} ORDER BY ${byDate} LIMIT ${RANK_WINDOW}))
      SELECT ${unifiedItemSelectSql} FROM items WHERE items.id IN (SELECT id FROM candidates)
      ORDER BY ${order} LIMIT ${q.limit} OFFSET ${offset}`;
  }
  return sql`SELECT ${unifiedItemSelectSql} FROM items
    WHERE items.id IN (SELECT items.id FROM items WHERE ${where} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${offset})
    ORDER BY ${order}`;
}

export interface ItemsRepoOptions {
  /** How long a computed total may be reused for the same filters (0 disables). */
  countCacheMs?: number;
}

/** Totals below this are cheap to count exactly every time; only larger ones are cached. */
const CACHE_COUNTS_FROM = 1000;
const COUNT_CACHE_ENTRIES = 500;

export function createItemsRepo(pool: pg.Pool, opts: ItemsRepoOptions = {}) {
  const countCacheMs = opts.countCacheMs ?? 15_000;
  const counts = new Map<string, { total: number; at: number }>();

  async function count(where: SQL): Promise<number> {
    const query = dialect.sqlToQuery(sql`SELECT count(*)::int AS n FROM items WHERE ${where}`);
    const key = query.sql + JSON.stringify(query.params);
    const hit = counts.get(key);
    if (hit && Date.now() - hit.at < countCacheMs) return hit.total;
    const { rows } = await pool.query<{ n: number }>(query.sql, query.params as unknown[]);
    const total = rows[0]?.n ?? 0;
    if (countCacheMs > 0 && total >= CACHE_COUNTS_FROM) {
      counts.delete(key);
      counts.set(key, { total, at: Date.now() });
      if (counts.size > COUNT_CACHE_ENTRIES) counts.delete(counts.keys().next().value!);
    }
    return total;
  }

  return {
    /**
     * One page and the total. The page is always read fresh. The total is exact when the page proves it (a
     * non-empty page shorter than `limit` ends the result); otherwise it is counted in parallel with the page on a
     * second connection. Counting 100,000 matching rows costs tens of milliseconds, so large totals are reused for
     * the same filters for `countCacheMs` (15 s): after a sync or a moderation change the "T total items" line
     * may lag by that much, the rows never do.
     */
    async list(q: ItemListQuery, now: Date): Promise<ItemPage> {
      const plan = searchPlan(q.search);
      const where = itemWhere(q, now, plan);
      const offset = (q.page - 1) * q.limit;
      const pageQuery = runSql<UnifiedItemRow>(pool, pageSql(q, plan, where, offset));
      if (offset === 0) {
        const rows = await pageQuery;
        if (rows.length < q.limit) return { rows, total: rows.length };
        return { rows, total: await count(where) };
      }
      const [rows, total] = await Promise.all([pageQuery, count(where)]);
      return { rows, total: rows.length > 0 && rows.length < q.limit ? offset + rows.length : total };
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
