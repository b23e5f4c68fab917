import type pg from 'pg';

/**
 * Merges the pending entries of every GIN index on items and returns how many pending pages there were: what each
 * scan of those indexes would have read in full until then (0 when a bulk writer has merged them).
 */
export async function mergePendingItemPages(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pages: number }>(`SELECT coalesce(sum(gin_clean_pending_list(c.oid)), 0)::int AS pages
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE i.indrelid = 'items'::regclass AND a.amname = 'gin'`);
  return rows[0]!.pages;
}
