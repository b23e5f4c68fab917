import { PRODUCT_FAMILIES, productFamiliesOf, type ProductFamily } from '@radar/contracts';
import { isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { productMappings } from '../../db/schema/index.js';
import { safeCopiesOf, SANITIZE_VERSION } from '../../lib/html.js';
import type { Logger } from '../../logger.js';
import { mergePendingItemIndexEntries } from '../../db/pending-index-entries.js';
import { messageTiming } from '../../sources/rollout-timing.js';
import { DERIVED_VERSION, messageDerived, roadmapDerived } from './derived-fields.js';

/** Rows written per UPDATE. */
const BATCH = 500;

/** The admins' product family overrides (Products tab), by product name. */
export async function familyOverrides(db: DbOrTx): Promise<Map<string, ProductFamily>> {
  const rows = await db
    .select({ product: productMappings.sourceProduct, family: productMappings.family })
    .from(productMappings)
    .where(isNotNull(productMappings.family));
  return new Map(rows.filter((r) => (PRODUCT_FAMILIES as readonly string[]).includes(r.family ?? '')).map((r) => [r.product, r.family as ProductFamily]));
}

/**
 * Writes items.product_families of the rows `which` names (row ids, or every row holding a product) from their
 * products, the rules and the overrides; rows already right are left alone. Returns how many changed.
 */
export async function refreshProductFamilies(db: DbOrTx, which: { ids: number[] } | { product: string }): Promise<number> {
  if ('ids' in which && which.ids.length === 0) return 0;
  const overrides = await familyOverrides(db);
  const where = 'ids' in which ? sql`id = ANY(${sql.param(which.ids)}::int[])` : sql`products @> ARRAY[${which.product}]::text[]`;
  const { rows } = await db.execute<{ id: number; products: string[]; product_families: string[] }>(
    sql`SELECT id, products, product_families FROM items WHERE ${where}`,
  );
  const changed = rows
    .map((r) => ({ id: r.id, families: productFamiliesOf(r.products, overrides) }))
    .filter((r, i) => r.families.join(',') !== (rows[i]?.product_families ?? []).join(','));
  for (let i = 0; i < changed.length; i += BATCH) {
    const values = changed.slice(i, i + BATCH).map((r) => sql`(${r.id}::int, ${sql.param(r.families)}::text[])`);
    await db.execute(sql`UPDATE items SET product_families = v.families FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, families) WHERE items.id = v.id`);
  }
  return changed.length;
}

/**
 * Derives again every row written before DERIVED_VERSION, in batches, until done or `stop` is aborted (the next
 * start goes on); returns how many rows it read. A row a sync
 * rewrites meanwhile already carries the current version and is left as the sync wrote it.
 */
export async function rederiveItems(db: DbOrTx, log?: Logger, stop?: AbortSignal): Promise<number> {
  const overrides = await familyOverrides(db);
  let total = 0;
  // Keyset by id: each batch starts after the last one. Asking again for "the first rows still out of date" walked
  // every row already brought up to date on each batch (quadratic: hours at a million items).
  let afterId = 0;
  while (!stop?.aborted) {
    const { rows } = await db.execute<{
      id: number;
      source: 'roadmap' | 'messages';
      body_html: string | null;
      created_date: Date | string | null;
      release_date: string | null;
      products: string[];
    }>(
      sql`SELECT id, source, body_html, created_date, release_date, products FROM items WHERE id > ${afterId} AND derived_version < ${DERIVED_VERSION} ORDER BY id LIMIT ${BATCH}`,
    );
    if (rows.length === 0) break;
    afterId = Number(rows[rows.length - 1]?.id ?? afterId);
    const values = rows.map((r) => {
      const published = r.created_date ? new Date(r.created_date) : null;
      const derived = r.source === 'messages' ? messageDerived(messageTiming(r.body_html ?? '', published)) : roadmapDerived(r.release_date);
      const families = productFamiliesOf(r.products, overrides);
      return sql`(${r.id}::int, ${JSON.stringify(derived.timing)}::jsonb, ${derived.timingStart}::date, ${derived.timingEnd}::date, ${sql.param(families)}::text[])`;
    });
    await db.execute(sql`
      UPDATE items SET timing = v.timing, timing_start = v.start, timing_end = v.finish, product_families = v.families, derived_version = ${DERIVED_VERSION}
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, timing, start, finish, families)
      WHERE items.id = v.id AND items.derived_version < ${DERIVED_VERSION}`);
    total += rows.length;
  }
  // Stopped by a shutdown, the pending index entries are left to PostgreSQL's own merge: the pool is about to close.
  if (total > 0 && !stop?.aborted) {
    await mergePendingItemIndexEntries(db, log);
    log?.info({ rows: total, version: DERIVED_VERSION }, 'derived item fields brought up to date');
  }
  return total;
}

/** Rows per batch when making sanitised copies: bodies are long, so fewer rows than BATCH. */
const COPY_BATCH = 200;

/**
 * Makes the sanitised copies (lib/html.ts `safeCopiesOf`) of every row whose copies are missing or of another policy
 * version, in batches, until done or `stop` is aborted (the next start goes on); returns how many rows it wrote. A row written meanwhile (a sync passes its own copies, any
 * other write of the text marks them out of date) is left as it is: each row is written only in the version it was
 * read in (`xmin`, the id of the transaction that wrote that version).
 */
export async function remakeSafeCopies(db: DbOrTx, log?: Logger, stop?: AbortSignal): Promise<number> {
  let total = 0;
  let afterId = 0;
  while (!stop?.aborted) {
    const { rows } = await db.execute<{ id: number; xmin: string; description: string | null; body_html: string | null }>(
      sql`SELECT id, xmin::text AS xmin, description, body_html FROM items
        WHERE id > ${afterId} AND safe_version <> ${SANITIZE_VERSION} ORDER BY id LIMIT ${COPY_BATCH}`,
    );
    if (rows.length === 0) break;
    afterId = Number(rows[rows.length - 1]?.id ?? afterId);
    const values = rows.map((r) => {
      const copies = safeCopiesOf({ description: r.description, bodyHtml: r.body_html });
      return sql`(${r.id}::int, ${r.xmin}::text, ${copies.descriptionSafe}::text, ${copies.bodySafe}::text, ${copies.safeSource}::text)`;
    });
    const written = await db.execute(sql`
      UPDATE items SET description_safe = v.description, body_safe = v.body, safe_version = ${SANITIZE_VERSION}, safe_source = v.source
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, xmin, description, body, source)
      WHERE items.id = v.id AND items.xmin::text = v.xmin`);
    total += written.rowCount ?? 0;
  }
  if (total > 0 && !stop?.aborted) {
    await mergePendingItemIndexEntries(db, log);
    log?.info({ rows: total, version: SANITIZE_VERSION }, 'sanitised copies of item text made');
  }
  return total;
}
