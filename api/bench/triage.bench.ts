import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery, TRIAGE_VIEWS, type TriageView } from '@radar/contracts';
import type { TenantScope } from '../src/features/items/item-query.js';
import { createItemsRepo } from '../src/features/items/items.repo.js';
import { countSql, pageSql } from '../src/features/items/list-page-sql.js';
import { itemWhere, searchPlan } from '../src/features/items/item-query.js';
import { triageLens, triageOnly, triageOnlyCountSql } from '../src/features/triage/triage-lens.js';
import { createTriageRepo } from '../src/features/triage/triage.repo.js';
import { queueSql } from '../src/features/triage/triage-queue.repo.js';
import { withBenchDatabase } from './bench-db.js';
import { topBuffers } from './explain.js';
import { seedItems } from './seed-items.js';
import { percentile } from './stats.js';

const TENANTS = 20;
const PUBLIC_TENANTS = 2;
const USERS = 25;
const RUNS = 60;
const dialect = new PgDialect();

/**
 * The triage queue views at 100,000 items and about 200,000 triage records: the items bench's seed (70,000 roadmap
 * items, 30,000 posts), each post received by 4 or 5 of 20 tenants, records opened by the sync's own statement
 * (`openRecords`), then worked as a team would: a third owned by 25 users, a fifth done, a tenth not relevant, due
 * dates set by hand on a quarter within two months either side of today. Each view's page and total, as a user
 * given one private tenant and as an admin, 60 runs after a warm-up; buffers of one EXPLAIN (ANALYZE, BUFFERS).
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
    const tenantIds = tenantRows.map((r) => r.id);
    await database.pool.query(
      `INSERT INTO item_tenants (item_id, tenant_id, first_seen_at, expired)
       SELECT i.id, ($1::int[])[1 + ((i.id * 7 + k) % $2::int)], $3::timestamptz, false
       FROM items i CROSS JOIN generate_series(0, 4) AS k WHERE i.source = 'messages' AND (k < 4 OR i.id % 3 = 0)`,
      [tenantIds, TENANTS, now],
    );
    const { rows: userRows } = await database.pool.query<{ id: number }>(
      `INSERT INTO users (email, first_name, last_name) SELECT 'owner' || g || '@example.com', 'Owner', g::text FROM generate_series(1, $1::int) AS g RETURNING id`,
      [USERS],
    );
    const userIds = userRows.map((r) => r.id);

    const { db } = database;
    const started = performance.now();
    const opened = await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
    const openSeconds = (performance.now() - started) / 1000;
    // Worked as a team would: owners, decisions and hand-set due dates spread over the records.
    await database.pool.query(
      `UPDATE triage_records SET
         owner_id = CASE WHEN id % 3 = 0 THEN ($1::int[])[1 + (id / 3) % $2::int] END,
         state = CASE WHEN id % 5 = 0 THEN 'done' WHEN id % 10 = 1 THEN 'not_relevant' WHEN id % 7 = 2 THEN 'in_progress' WHEN id % 11 = 3 THEN 'relevant' ELSE 'new' END,
         done_at = CASE WHEN id % 5 = 0 THEN now() END,
         due_date = CASE WHEN id % 4 = 0 THEN current_date + ((id % 121) - 60) ELSE due_date END,
         due_source = CASE WHEN id % 4 = 0 THEN 'manual' ELSE due_source END`,
      [userIds, USERS],
    );
    await database.pool.query('VACUUM ANALYZE items');
    await database.pool.query('VACUUM ANALYZE item_tenants');
    await database.pool.query('VACUUM ANALYZE triage_records');
    const { rows: counts } = await database.pool.query<{ records: number; owned: number; due: number }>(
      `SELECT count(*)::int AS records, count(owner_id)::int AS owned, count(due_date)::int AS due FROM triage_records`,
    );

    // "mine" is one of the 25 owners (some 1,800 open records), seen as a user given one private tenant and as an admin.
    const me = userIds[1]!;
    const callers: { name: string; scope: TenantScope }[] = [
      { name: 'user given one private tenant', scope: { granted: [tenantIds[PUBLIC_TENANTS]!] } },
      { name: 'admin', scope: 'all' },
    ];
    const repo = createTriageRepo(db);
    const filters = (() => {
      const { page: _page, limit: _limit, sortField: _f, sortDirection: _d, ...rest } = itemListQuery.parse({});
      return rest;
    })();
    const rows: string[] = [];
    let slowest: { what: string; p95: number; page: string[]; count: string[] } | undefined;
    const measure = async (name: string, view: string, f: () => Promise<number>, explainOf?: () => { page: string; count: string }) => {
      await f();
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        total = await f();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      let buffers = '—';
      const p95 = percentile(times, 95);
      if (explainOf) {
        const { page, count } = explainOf();
        const explain = async (text: string) =>
          (await database.pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`)).rows.map((r) => r['QUERY PLAN'] as string);
        const [pagePlan, countPlan] = [await explain(page), await explain(count)];
        const [p, c] = [topBuffers(pagePlan), topBuffers(countPlan)];
        buffers = `${p.hit + p.read} / ${c.hit + c.read}`;
        if (!slowest || p95 > slowest.p95) slowest = { what: `${name}, ${view}`, p95, page: pagePlan, count: countPlan };
        // BENCH_VERBOSE=1 prints every plan (for tuning; the page keeps the slowest only).
        if (process.env.BENCH_VERBOSE) process.stdout.write(`\n### ${name}, ${view}\n${pagePlan.join('\n')}\n--- total\n${countPlan.join('\n')}\n`);
      }
      rows.push(
        `| ${name} | ${view} | ${total.toLocaleString('en-US')} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 95).toFixed(1)} ms | ${buffers} |`,
      );
    };
    const inline = (s: { sql: string; params: unknown[] }) =>
      s.sql.replace(/\$(\d+)/g, (_, n: string) => {
        const v = s.params[Number(n) - 1];
        if (v instanceof Date) return `'${v.toISOString()}'`;
        if (Array.isArray(v)) return `'{${v.join(',')}}'`;
        return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
      });
    for (const caller of callers) {
      for (const view of TRIAGE_VIEWS as readonly TriageView[]) {
        const q = { filters: { ...filters, tenantScope: caller.scope }, view, userId: me, now, page: 1, limit: 50 };
        await measure(
          caller.name,
          `\`view=${view}\``,
          async () => (await repo.queue(q)).total,
          () => {
            const { page, count } = queueSql(q);
            return { page: inline(dialect.sqlToQuery(page)), count: inline(dialect.sqlToQuery(count)) };
          },
        );
      }
      await measure(caller.name, 'header counts', async () => (await repo.counts(me, caller.scope, now)).open);
      // With a list filter the records are joined to their items.
      const filtered = {
        filters: { ...filters, sources: ['messages' as const], tenantScope: caller.scope },
        view: 'unassigned' as const,
        userId: me,
        now,
        page: 1,
        limit: 50,
      };
      await measure(
        caller.name,
        '`view=unassigned&sources=messages`',
        async () => (await repo.queue(filtered)).total,
        () => {
          const { page, count } = queueSql(filtered);
          return { page: inline(dialect.sqlToQuery(page)), count: inline(dialect.sqlToQuery(count)) };
        },
      );
      // The dashboard's views are the item list with `triage=` (items, not records).
      const list = createItemsRepo(database.pool, { countCacheEntries: 0, jsonCacheChars: 0, triage: triageLens });
      for (const query of [
        'triage=mine&sortField=due&sortDirection=asc',
        'triage=unassigned',
        'triage=unassigned&sortField=due&sortDirection=asc',
        'triage=overdue&sortField=due&sortDirection=asc',
        'triage=unassigned&sources=messages',
        'sortField=due&sortDirection=asc',
      ]) {
        const listQuery = { ...itemListQuery.parse(Object.fromEntries(new URLSearchParams(query))), tenantScope: caller.scope, triageUserId: me };
        await measure(
          caller.name,
          `list \`${query}\``,
          async () => (await list.list(listQuery, now)).total,
          () => {
            const plan = searchPlan(listQuery.search);
            return {
              page: inline(dialect.sqlToQuery(pageSql(listQuery, now, plan, 0, undefined, { triage: triageLens }))),
              // The total as the repo counts it: a view with no other filter from its records alone.
              count: inline(
                dialect.sqlToQuery(triageOnly(listQuery) ? triageOnlyCountSql(listQuery, now) : countSql(itemWhere(listQuery, now, plan, 'all', triageLens))),
              ),
            };
          },
        );
      }
    }
    return [
      `api/bench/triage.bench.ts. The items bench's 100,000 items, posts received by 4 or 5 of ${TENANTS} tenants; ${counts[0]?.records.toLocaleString('en-US')} triage`,
      `records opened by the sync's statement in ${openSeconds.toFixed(1)} s (${opened.length.toLocaleString('en-US')} records), ${counts[0]?.owned.toLocaleString('en-US')} owned by ${USERS} users,`,
      `${counts[0]?.due.toLocaleString('en-US')} with a due date. Each view's page (50 rows) and total, ${RUNS} runs after a warm-up, in process against`,
      'PostgreSQL 18; buffers (shared hit + read) of one EXPLAIN (ANALYZE, BUFFERS) of the page / the total. "mine" is one of the',
      `owners (${USERS} owners share a third of the records).`,
      '',
      '| caller | view | total | p50 | p95 | buffers page / total |',
      '|---|---|---:|---:|---:|---:|',
      ...rows,
      '',
      ...(slowest
        ? [
            `<details><summary>Plans of the slowest (p95): ${slowest.what}</summary>`,
            '',
            '```',
            'page:',
            ...slowest.page,
            'total:',
            ...slowest.count,
            '```',
            '',
            '</details>',
          ]
        : []),
    ].join('\n');
  });
}

export default { title: 'The triage queue views at 100,000 items and 200,000 records', run };
