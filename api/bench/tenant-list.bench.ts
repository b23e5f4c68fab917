import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery } from '@radar/contracts';
import { itemWhere, searchPlan, type ItemListRequest, type TenantScope } from '../src/features/items/item-query.js';
import { createItemsRepo } from '../src/features/items/items.repo.js';
import { triageLens } from '../src/features/triage/triage-lens.js';
import { countSql, pageSql } from '../src/features/items/list-page-sql.js';
import { withBenchDatabase } from './bench-db.js';
import { topBuffers } from './explain.js';
import { queryOf } from './scenarios.js';
import { seedItems } from './seed-items.js';
import { percentile } from './stats.js';

const TENANTS = 20;
const PUBLIC_TENANTS = 2;
/** Each post is received by this many tenants (a window over the tenants that moves with the post). */
const TENANTS_PER_POST = 8;
const RUNS = 60;
const dialect = new PgDialect();

interface Case {
  name: string;
  path: string;
  scope: TenantScope | undefined;
}

/**
 * The list with a tenant filter at 100,000 items: the items bench's seed (70,000 roadmap items, 30,000 posts, 4,000
 * removed), its posts received by 20 tenants (2 public, 8 tenants a post), and the list's page and total queries as a
 * guest (public tenants only), a user given one private tenant, and an admin, with and without `tenants=`. Each query
 * runs 60 times with the totals cache off (every request counts anew), so the times are what an uncached request
 * pays; the buffers are those of one warm EXPLAIN (ANALYZE, BUFFERS).
 */
async function run(): Promise<string> {
  return withBenchDatabase({ poolMax: 4 }, async (database) => {
    const now = new Date();
    await seedItems(database.pool, now);
    const { rows: tenantRows } = await database.pool.query<{ id: number }>(
      `INSERT INTO tenants (name, directory_id, visibility)
       SELECT 'Tenant ' || g, lpad(g::text, 8, '0') || '-0000-4000-8000-000000000000', CASE WHEN g <= $2 THEN 'public' ELSE 'private' END
       FROM generate_series(1, $1::int) AS g RETURNING id`,
      [TENANTS, PUBLIC_TENANTS],
    );
    const ids = tenantRows.map((r) => r.id);
    // Links through the table's trigger, as a sync writes them (it keeps items.tenant_ids).
    const started = performance.now();
    await database.pool.query(
      `INSERT INTO item_tenants (item_id, tenant_id, first_seen_at, expired)
       SELECT i.id, ($1::int[])[1 + ((i.id + k) % $2::int)], $3::timestamptz, false
       FROM items i CROSS JOIN generate_series(0, $4::int - 1) AS k WHERE i.source = 'messages'`,
      [ids, TENANTS, now, TENANTS_PER_POST],
    );
    const linkSeconds = (performance.now() - started) / 1000;
    await database.pool.query('VACUUM ANALYZE items');
    await database.pool.query('VACUUM ANALYZE item_tenants');
    const { rows: counts } = await database.pool.query<{ links: number; posts: number }>(
      `SELECT (SELECT count(*)::int FROM item_tenants) AS links, (SELECT count(*)::int FROM items WHERE tenant_ids <> '{}') AS posts`,
    );

    const privateId = ids[PUBLIC_TENANTS]!;
    const publicId = ids[0]!;
    const cases: Case[] = [
      { name: 'guest, default list', path: '/api/unified/items', scope: undefined },
      { name: 'guest, one public tenant', path: `/api/unified/items?tenants=${publicId}`, scope: undefined },
      { name: 'guest, posts of one public tenant', path: `/api/unified/items?sources=messages&tenants=${publicId}`, scope: undefined },
      { name: 'user given one private tenant, default list', path: '/api/unified/items', scope: { granted: [privateId] } },
      { name: 'user given one private tenant, that tenant', path: `/api/unified/items?tenants=${privateId}`, scope: { granted: [privateId] } },
      { name: 'admin, one private tenant', path: `/api/unified/items?tenants=${privateId}`, scope: 'all' },
      { name: 'admin, one tenant and a search', path: `/api/unified/items?tenants=${privateId}&search=policy`, scope: 'all' },
      { name: 'admin, two tenants, page 20', path: `/api/unified/items?tenants=${privateId},${ids[5]}&page=20`, scope: 'all' },
    ];
    const repo = createItemsRepo(database.pool, { countCacheEntries: 0, jsonCacheChars: 0, triage: triageLens });
    const rows: string[] = [];
    for (const c of cases) {
      const parsed = itemListQuery.parse(queryOf(c.path));
      const q: ItemListRequest = c.scope ? { ...parsed, tenantScope: c.scope } : parsed;
      await repo.list(q, now);
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        total = (await repo.list(q, now)).total;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const plan = searchPlan(q.search);
      const explain = async (s: { sql: string; params: unknown[] }) =>
        topBuffers((await database.pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.sql}`, s.params)).rows.map((r) => r['QUERY PLAN'] as string));
      const page = await explain(dialect.sqlToQuery(pageSql(q, now, plan, (q.page - 1) * q.limit)));
      const count = await explain(dialect.sqlToQuery(countSql(itemWhere(q, now, plan))));
      rows.push(
        `| ${c.name} | \`${c.path.replace('/api/unified/items', '') || '(none)'}\` | ${total.toLocaleString('en-US')} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 95).toFixed(1)} ms | ${page.hit + page.read} | ${count.hit + count.read} |`,
      );
    }
    return [
      `api/bench/tenant-list.bench.ts. The items bench's 100,000 items; their ${counts[0]?.posts.toLocaleString('en-US')} posts received by ${TENANTS} tenants`,
      `(${PUBLIC_TENANTS} public, ${TENANTS_PER_POST} tenants a post: ${counts[0]?.links.toLocaleString('en-US')} links, written through the trigger that keeps`,
      `items.tenant_ids in ${linkSeconds.toFixed(0)} s). The list's page and total (the totals cache off: every request counts anew), ${RUNS} runs each`,
      'after a warm-up, in process against PostgreSQL 18; buffers (shared hit + read) of one EXPLAIN (ANALYZE, BUFFERS) of the page and the count.',
      '',
      '| caller and view | query | total | p50 | p95 | page buffers | count buffers |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n');
  });
}

export default { title: 'The list with a tenant filter at 100,000 items', run };
