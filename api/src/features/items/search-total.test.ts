import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery, type ItemListResponse } from '@radar/contracts';
import { seedItems } from '../../../bench/seed-items.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { itemWhere, searchPlan } from './item-query.js';
import { cappedCountSql, EXACT_SEARCH_TOTAL, RANK_WINDOW } from './items.repo.js';

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

  it('answers from a rank window that is not full at once, and counts a full one while its page is read', async () => {
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
    // The statements the api sends, seen on the real pool; those `hold` picks wait for the gate, the others pass
    // straight through to PostgreSQL.
    const isTotal = (statement: string) => /^(EXPLAIN|SELECT count\(\*\))/.test(statement.trim());
    const sent: string[] = [];
    let hold: (statement: string) => boolean = isTotal;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const pool = t.database.pool;
    const query = pool.query.bind(pool);
    const spy = jest.spyOn(pool, 'query').mockImplementation(((text: unknown, ...rest: unknown[]) => {
      const statement = typeof text === 'string' ? text : String((text as { text?: string }).text);
      const pass = () => (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
      sent.push(statement);
      return hold(statement) ? gate.then(pass) : pass();
    }) as typeof pool.query);
    // Naming every source filters nothing but keys the total anew (the probes above cached theirs).
    const search = (text: string) => list(`search=${encodeURIComponent(text)}&limit=50&sources=roadmap&sources=messages&sources=health`);
    try {
      // The window's size is the total: the answer does not wait for the held estimate and count.
      const answer = await search(small!);
      expect({ total: answer.total, approximate: answer.totalApproximate }).toEqual({ total: sizes.get(small!), approximate: undefined });

      // A full window's total is counted while its page is read: with the page held, the estimate is on its way.
      hold = (statement) => statement.trim().startsWith('WITH candidates');
      sent.length = 0;
      const pending = search(large!);
      for (let i = 0; i < 200 && !sent.some(isTotal); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(sent.filter(isTotal).length).toBeGreaterThan(0);
      open();
      expect((await pending).total).toBeGreaterThanOrEqual(RANK_WINDOW);
    } finally {
      open();
      spy.mockRestore();
    }
  }, 60_000);

  it('counts a prefix that both configurations make alike once, with the same matches', async () => {
    // The count as the api sends it (not capped here), and the text search condition of its plan.
    const counted = async (search: string) => {
      const q = itemListQuery.parse({ search });
      const { sql: text, params } = new PgDialect().sqlToQuery(cappedCountSql(itemWhere(q, t.clock.now(), searchPlan(q.search), 'counted'), 1_000_000));
      const { rows } = await t.database.pool.query(`EXPLAIN ${text}`, params);
      const condition = rows.map((r: Record<string, string>) => r['QUERY PLAN']!).find((line: string) => line.includes('@@'));
      return { n: (await t.database.pool.query(text, params)).rows[0].n as number, condition: condition ?? '' };
    };
    // `purv`: English and simple alike, asked for once.
    const alike = await counted('sensitivity labels purv');
    // EXPLAIN prints the tsquery as a quoted literal: 'purv':* appears as ''purv'':*.
    expect([alike.condition, alike.condition.match(/''purv'':\*/g)?.length]).toEqual([expect.any(String), 1]);
    expect(alike.n).toBe(await exactCount('sensitivity labels purv'));
    // `meetings`: English makes `meet`, simple keeps the word (it matches ids); both stay.
    const unlike = await counted('teams meetings');
    expect([unlike.condition.match(/''meet'':\*/g)?.length, unlike.condition.match(/''meetings'':\*/g)?.length]).toEqual([1, 1]);
    expect(unlike.n).toBe(await exactCount('teams meetings'));
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
