import type pg from 'pg';
import { MERGE_PENDING_ITEM_INDEX_ENTRIES } from '../src/db/pending-index-entries.js';

/**
 * Merges the pending entries of every GIN index on items and returns how many pending pages there were: what each
 * scan of those indexes would have read in full until then (0 when a bulk writer has merged them). Unlike the
 * product's merge, which never fails its caller, any error here fails the test.
 */
export async function mergePendingItemPages(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pages: number }>(MERGE_PENDING_ITEM_INDEX_ENTRIES);
  return rows[0]!.pages;
}
