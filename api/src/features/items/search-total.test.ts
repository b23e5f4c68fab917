import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import type { ItemListResponse } from '@radar/contracts';
import { seedItems } from '../../../bench/seed-items.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { EXACT_SEARCH_TOTAL, RANK_WINDOW } from './items.repo.js';

/**
 * A search's total is exact up to EXACT_SEARCH_TOTAL matches and PostgreSQL's estimate past it, marked
 * `totalApproximate`; the rows and their order never change. 4,000 items with the bench's realistic text: common
 * words match more than the threshold, rare pairs fewer.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedItems(t.database.pool, t.clock.now(), 4000, () => undefined);
  // Current statistics, as autovacuum keeps them after a sync.
  await t.database.pool.query('ANALYZE items');
}, 60_000);
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await request(t.app).get(`/api/unified/items?${query}`);
  expect(res.status).toBe(200);
  return res.body as ItemListResponse;
};
const exactCount = async (search: string) => {
  // Every match, as the list answered before estimates: the same rows as the list, counted by walking its pages.
  let page = 1;
  let n = 0;
  for (;;) {
    const body = await list(`search=${encodeURIComponent(search)}&limit=50&page=${page}`);
    n += body.items.length;
    if (body.items.length < 50) return n;
    page++;
  }
};

describe('search totals', () => {
  it('estimates the total of a search with more matches than the threshold and says so', async () => {
    const body = await list('search=users');
    expect(body.totalApproximate).toBe(true);
    expect(body.total).toBeGreaterThan(EXACT_SEARCH_TOTAL);
    expect(body.totalPages).toBe(Math.ceil(body.total / 50));
    // The estimate is near the real count (statistics, not a guess): within a quarter of it.
    const exact = await exactCount('users');
    expect(exact).toBeGreaterThan(EXACT_SEARCH_TOTAL);
    expect(Math.abs(body.total - exact) / exact).toBeLessThan(0.25);
  }, 60_000);

  it('counts exactly up to the threshold, with no mark', async () => {
    const body = await list('search=sensitivity%20labels%20purv');
    expect(body.total).toBeLessThanOrEqual(EXACT_SEARCH_TOTAL);
    expect(body.totalApproximate).toBeUndefined();
    expect(body.total).toBe(await exactCount('sensitivity labels purv'));
  });

  it('takes the exact total from a rank window that is not full: no estimate and no count', async () => {
    const probes = [
      'sensitivity labels purv',
      'copilot outlook calendar sharing',
      'teams meeting outlook recording',
      'labels purview copilot sites',
      'retention policy teams meeting',
      'copilot outlook calendar sharing teams',
    ];
    const sizes = new Map<string, number>();
    for (const search of probes) sizes.set(search, await exactCount(search));
    // A full first page from a window of fewer than RANK_WINDOW candidates, and one from a full window.
    const small = probes.find((search) => (sizes.get(search) ?? 0) > 50 && (sizes.get(search) ?? 0) < RANK_WINDOW);
    const large = probes.find((search) => (sizes.get(search) ?? 0) >= RANK_WINDOW);
    expect([small, large, [...sizes]]).toEqual([expect.any(String), expect.any(String), expect.anything()]);
    // The statements the api sends, seen on the real pool as they pass through to PostgreSQL.
    const statements: string[] = [];
    const pool = t.database.pool;
    const query = pool.query.bind(pool);
    const spy = jest.spyOn(pool, 'query').mockImplementation(((text: unknown, ...rest: unknown[]) => {
      statements.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return (query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as typeof pool.query);
    try {
      const totals = async (search: string) => {
        statements.length = 0;
        // Naming every source filters nothing but keys the total anew (the probes above cached theirs).
        const body = await list(`search=${encodeURIComponent(search)}&limit=50&sources=roadmap&sources=messages&sources=health`);
        return {
          total: body.total,
          approximate: body.totalApproximate,
          counted: statements.filter((s) => /^(EXPLAIN|SELECT count\(\*\))/.test(s.trim())).length,
        };
      };
      expect(await totals(small!)).toEqual({ total: sizes.get(small!), approximate: undefined, counted: 0 });
      expect((await totals(large!)).counted).toBeGreaterThan(0);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);

  it('never estimates a list without a search', async () => {
    const body = await list('sources=roadmap&limit=50');
    expect(body.totalApproximate).toBeUndefined();
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM items WHERE source = 'roadmap' AND NOT is_removed`);
    expect(body.total).toBe(rows[0].n);
  });

  it('knows the total exactly from the last page, and shows one more page past an estimate that is low', async () => {
    const exact = await exactCount('users');
    expect(exact % 50).not.toBe(0);
    const last = await list(`search=users&limit=50&page=${Math.ceil(exact / 50)}`);
    expect(last.total).toBe(exact);
    expect(last.totalApproximate).toBeUndefined();

    // Statistics gone stale: a third of the items that did not match now do, and nothing has analysed the table yet.
    await t.database.pool.query('ALTER TABLE items SET (autovacuum_enabled = false)');
    await t.database.pool.query(`UPDATE items SET title = title || ' users' WHERE id % 3 = 0 AND NOT search_vector @@ to_tsquery('english', 'users')`);
    const now = await exactCount('users');
    const first = await list('search=users&limit=40');
    expect(first.totalApproximate).toBe(true);
    const estimatePages = Math.ceil(first.total / 40);
    expect(estimatePages).toBeLessThan(Math.ceil(now / 40));
    const atEnd = await list(`search=users&limit=40&page=${estimatePages}`);
    expect(atEnd.items).toHaveLength(40);
    expect(atEnd.totalApproximate).toBe(true);
    expect(atEnd.totalPages).toBe(estimatePages + 1);
  }, 60_000);
});
