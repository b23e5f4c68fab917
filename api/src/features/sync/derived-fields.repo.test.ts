import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedItems } from '../../../bench/seed-items.js';
import { mergePendingItemPages } from '../../../test/pending-index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { DERIVED_VERSION } from './derived-fields.js';
import { rederiveItems } from './derived-fields.repo.js';

/** The start-up task that derives old rows again, over many batches (500 rows each) and rows a sync rewrote meanwhile. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedItems(t.database.pool, t.clock.now(), 1_800, () => undefined);
}, 60_000);
afterAll(() => t.close());

describe('rederiveItems', () => {
  it('brings every out-of-date row up to date once, batch after batch, and leaves current rows alone', async () => {
    const pool = t.database.pool;
    // Every row out of date but every seventh, which a sync has already rewritten in the current version.
    await pool.query(`UPDATE items SET derived_version = CASE WHEN id % 7 = 0 THEN $1 ELSE 0 END, product_families = '{}'`, [DERIVED_VERSION]);
    const { rows: before } = await pool.query<{ stale: number; current: number }>(
      `SELECT count(*) FILTER (WHERE derived_version < $1)::int AS stale, count(*) FILTER (WHERE derived_version = $1)::int AS current FROM items`,
      [DERIVED_VERSION],
    );
    expect(before[0]!.stale).toBeGreaterThan(1_000);
    await mergePendingItemPages(pool);
    expect(await rederiveItems(t.ctx.db)).toBe(before[0]!.stale);
    // The rows it rewrote leave nothing pending in the GIN indexes for searches to read.
    expect(await mergePendingItemPages(pool)).toBe(0);
    const { rows: after } = await pool.query<{ stale: number; families: number; untouched: number }>(
      `SELECT count(*) FILTER (WHERE derived_version < $1)::int AS stale,
              count(*) FILTER (WHERE id % 7 <> 0 AND product_families <> '{}')::int AS families,
              count(*) FILTER (WHERE id % 7 = 0 AND product_families = '{}')::int AS untouched
       FROM items`,
      [DERIVED_VERSION],
    );
    expect(after[0]).toEqual({ stale: 0, families: before[0]!.stale, untouched: before[0]!.current });
    // Nothing left: a second run reads nothing.
    expect(await rederiveItems(t.ctx.db)).toBe(0);
  });
});
