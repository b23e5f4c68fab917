import { sql } from 'drizzle-orm';
import type { Logger } from '../logger.js';
import type { DbOrTx } from './client.js';
import { pgErrorCode } from './pg-errors.js';

/**
 * The GIN indexes of items (the search vector, products, tags, clouds, families, tenants) take each write into a
 * pending list first, and every scan of such an index reads its whole pending list until PostgreSQL merges it
 * (VACUUM, autoanalyze, or the list outgrowing `gin_pending_list_limit`). Items are written in bulk (a sync, a
 * re-derivation, a family change) and read all the time, and an update that changes no indexed text still adds
 * entries (a new row version is indexed anew), so a bulk writer merges the lists once it has committed: one merge
 * costs far less than every search reading the list until autovacuum, and less than writing with `fastupdate` off
 * (docs/benchmarks.md, "Figures behind the code").
 *
 * Never fails its caller (the write it follows is committed): a role that does not own the indexes (merging needs
 * ownership, as VACUUM does) is told once, and PostgreSQL's own merging still happens.
 */
let notOwnerTold = false;

/** Merges the pending entries of every GIN index on items and answers `pages`: how many pending pages there were. */
export const MERGE_PENDING_ITEM_INDEX_ENTRIES = `SELECT coalesce(sum(gin_clean_pending_list(c.oid)), 0)::int AS pages
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE i.indrelid = 'items'::regclass AND a.amname = 'gin'`;

/** Merges the pending entries of every GIN index on items; returns the pending pages merged (0 when it cannot). */
export async function mergePendingItemIndexEntries(db: DbOrTx, log?: Logger): Promise<number> {
  try {
    const { rows } = await db.execute<{ pages: number }>(sql.raw(MERGE_PENDING_ITEM_INDEX_ENTRIES));
    return Number(rows[0]?.pages ?? 0);
  } catch (err) {
    if (pgErrorCode(err) === '42501') {
      if (!notOwnerTold)
        log?.warn(
          'the database role does not own the items indexes, so their pending entries are left to autovacuum (searches after a large sync may be slower until it runs)',
        );
      notOwnerTold = true;
    } else {
      log?.warn({ err }, 'merging the pending entries of the items indexes failed; autovacuum will merge them');
    }
    return 0;
  }
}
