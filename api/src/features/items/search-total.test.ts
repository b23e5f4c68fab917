import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery, type ItemListResponse } from '@radar/contracts';
import { seedItems } from '../../../bench/seed-items.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { itemWhere, searchPlan } from './item-query.js';
import { cappedCountSql, ESTIMATE_MARGIN, EXACT_SEARCH_TOTAL, RANK_WINDOW } from './list-page-sql.js';

/**
 * A search the statistics put past EXACT_SEARCH_TOTAL × ESTIMATE_MARGIN matches has PostgreSQL's estimate for its
 * total, marked `totalApproximate`; one they put under it is counted exactly; a search whose rank window is not full
 * needs neither (the window holds every match); the rows and their order never change. 10,000 items with the bench's realistic text: a two-letter prefix
 * matches most of them, a common word nearly half, rare pairs a few hundred.
 */
const ITEMS = 10_000;
/** Matches about nine items in ten: estimated past the margin. */
const COMMON = 'co';
/** Matches more than EXACT_SEARCH_TOTAL, estimated under the margin. */
const FREQUENT = 'users';
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedItems(t.database.pool, t.clock.now(), ITEMS, () => undefined);
  // Current statistics, as autovacuum keeps them after a sync.
  await t.database.pool.query('ANALYZE items');
}, 120_000);
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

/** Every match of `search` as the list filters them, counted in one statement. */
const matchCount = async (search: string) => {
  const q = itemListQuery.parse({ search });
  const { sql: text, params } = new PgDialect().sqlToQuery(cappedCountSql(itemWhere(q, t.clock.now(), searchPlan(q.search)), ITEMS * 2));
  return (await t.database.pool.query<{ n: number }>(text, params as unknown[])).rows[0]!.n;
};

describe('search totals', () => {
  it('estimates the total of a search the statistics put past the margin, and says so', async () => {
    const body = await list(`search=${COMMON}`);
    expect(body.totalApproximate).toBe(true);
    expect(body.total).toBeGreaterThan(EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN);
    expect(body.totalPages).toBe(Math.ceil(body.total / 50));
    // The estimate is near the real count (statistics, not a guess): within a quarter of it.
    const exact = await matchCount(COMMON);
    expect(Math.abs(body.total - exact) / exact).toBeLessThan(0.25);
  }, 60_000);

  it('counts exactly, at any size, a search the statistics put under the margin', async () => {
    const frequent = await list(`search=${FREQUENT}`);
    expect(frequent.totalApproximate).toBeUndefined();
    expect(frequent.total).toBeGreaterThan(EXACT_SEARCH_TOTAL);
    expect(frequent.total).toBe(await exactCount(FREQUENT));
    const rare = await list('search=sensitivity%20labels%20purv');
    expect(rare.total).toBeLessThanOrEqual(EXACT_SEARCH_TOTAL);
    expect(rare.totalApproximate).toBeUndefined();
    expect(rare.total).toBe(await exactCount('sensitivity labels purv'));
  }, 60_000);

  it('finds each total with the statements it needs: the page alone when its window is not full, then the estimate, then the count under the margin', async () => {
    const probes = [
      'sensitivity labels purv',
      'copilot outlook calendar sharing',
      'teams meeting outlook recording',
      'labels purview copilot sites',
      'retention policy teams meeting',
      'copilot outlook calendar sharing teams',
      'sensitivity labels purview copilot',
      'retention policy teams meeting outlook',
      'labels purview copilot sites teams',
      'copilot outlook calendar sharing teams meeting',
      'teams meeting outlook recording copilot',
      'retention policy teams meeting outlook calendar',
    ];
    const sizes = new Map<string, number>();
    for (const search of [...probes, FREQUENT]) sizes.set(search, await matchCount(search));
    // A full first page from a window of fewer than RANK_WINDOW candidates, and one from a full window.
    const small = probes.find((search) => (sizes.get(search) ?? 0) > 50 && (sizes.get(search) ?? 0) < RANK_WINDOW);
    const large = probes.find((search) => (sizes.get(search) ?? 0) >= RANK_WINDOW);
    expect([small, large, [...sizes]]).toEqual([expect.any(String), expect.any(String), expect.anything()]);
    // The statements the api sends, seen on the real pool.
    const sent: string[] = [];
    const pool = t.database.pool;
    const query = pool.query.bind(pool);
    const spy = jest.spyOn(pool, 'query').mockImplementation(((text: unknown, ...rest: unknown[]) => {
      sent.push((typeof text === 'string' ? text : String((text as { text?: string }).text)).trim());
      return (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
    }) as typeof pool.query);
    const kinds = () =>
      sent
        .map((statement) =>
          statement.startsWith('EXPLAIN')
            ? 'estimate'
            : statement.startsWith('WITH m AS')
              ? 'page counting its matches'
              : statement.startsWith('WITH candidates')
                ? 'page'
                : statement.startsWith('SELECT count(*)')
                  ? 'count'
                  : 'other',
        )
        .filter((kind) => kind !== 'other');
    // Naming every source filters nothing but keys the total anew (the probes above cached theirs).
    const search = (text: string) => list(`search=${encodeURIComponent(text)}&limit=50&sources=roadmap&sources=messages&sources=health`);
    try {
      // A window that is not full holds every match: its size is the total, nothing else is asked.
      sent.length = 0;
      const few = await search(small!);
      expect({ total: few.total, approximate: few.totalApproximate }).toEqual({ total: sizes.get(small!), approximate: undefined });
      expect(kinds()).toEqual(['page']);
      // A full window under the margin: every match counted, exactly.
      for (const text of [large!, FREQUENT]) {
        sent.length = 0;
        const answer = await search(text);
        expect({ text, total: answer.total, approximate: answer.totalApproximate }).toEqual({ text, total: sizes.get(text), approximate: undefined });
        expect(kinds()).toEqual(['page', 'estimate', 'count']);
      }
      // Past the margin: the estimate is the total.
      sent.length = 0;
      const common = await search(COMMON);
      expect(common.totalApproximate).toBe(true);
      expect(kinds()).toEqual(['page', 'estimate']);
      // The next page takes the total found with the first: no statement but its page.
      sent.length = 0;
      const second = await list(`search=${FREQUENT}&limit=50&page=2&sources=roadmap&sources=messages&sources=health`);
      expect(second.total).toBe(sizes.get(FREQUENT));
      expect(kinds()).toEqual(['page']);
      // A later page inside the window whose total is not at hand (here: the same words typed in capitals, a total
      // never asked for) finds it as its first page would.
      sent.length = 0;
      const later = await list(`search=${FREQUENT.toUpperCase()}&limit=50&page=3`);
      expect({ total: later.total, approximate: later.totalApproximate }).toEqual({ total: sizes.get(FREQUENT), approximate: undefined });
      expect(kinds()).toEqual(['page', 'estimate', 'count']);
      // A later page of a window that is not full: its first row says the window's size, the exact total.
      sent.length = 0;
      const laterFew = await list(`search=${encodeURIComponent(small!.toUpperCase())}&limit=10&page=2`);
      expect({ total: laterFew.total, approximate: laterFew.totalApproximate }).toEqual({ total: sizes.get(small!), approximate: undefined });
      expect(kinds()).toEqual(['page']);
      // Past the last match, an empty page has no row to carry the window's size: the total is counted beside it.
      // Pages of 10, the first one past the last match of `small` (still inside the window).
      const pastLast = Math.ceil(sizes.get(small!)! / 10) + 1;
      expect(pastLast * 10).toBeLessThanOrEqual(RANK_WINDOW);
      sent.length = 0;
      // (Capitalised: a total never asked for.)
      const capitalised = small!.charAt(0).toUpperCase() + small!.slice(1);
      const past = await list(`search=${encodeURIComponent(capitalised)}&limit=10&page=${pastLast}`);
      expect({ items: past.items.length, total: past.total }).toEqual({ items: 0, total: sizes.get(small!) });
      expect(kinds()).toEqual(['page', 'estimate', 'count']);
    } finally {
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
    const exact = await matchCount(COMMON);
    expect(exact % 50).not.toBe(0);
    const last = await list(`search=${COMMON}&limit=50&page=${Math.ceil(exact / 50)}`);
    expect(last.total).toBe(exact);
    expect(last.totalApproximate).toBeUndefined();

    // Statistics gone stale: every item now holds both words, and VACUUM (not ANALYZE) counts the rows again but
    // keeps the words' frequencies as they were: two words the planner multiplies, estimated past the margin.
    const stale = `microsoft ${COMMON}`;
    const before = await list(`search=${encodeURIComponent(stale)}&limit=40`);
    expect(before.totalApproximate).toBe(true);
    await t.database.pool.query('ALTER TABLE items SET (autovacuum_enabled = false)');
    await t.database.pool.query(
      `UPDATE items SET title = title || ' microsoft ${COMMON}' WHERE NOT search_vector @@ to_tsquery('english', 'microsoft & ${COMMON}:*')`,
    );
    await t.database.pool.query('VACUUM items');
    const now = await matchCount(stale);
    expect(now).toBe(ITEMS);
    const first = await list(`search=${encodeURIComponent(stale)}&limit=40`);
    expect(first.totalApproximate).toBe(true);
    const estimatePages = Math.ceil(first.total / 40);
    expect(estimatePages).toBeLessThan(Math.ceil(now / 40));
    const atEnd = await list(`search=${encodeURIComponent(stale)}&limit=40&page=${estimatePages}`);
    expect(atEnd.items).toHaveLength(40);
    expect(atEnd.totalApproximate).toBe(true);
    expect(atEnd.totalPages).toBe(estimatePages + 1);
  }, 60_000);
});
