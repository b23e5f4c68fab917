import { PgDialect } from 'drizzle-orm/pg-core';
import { itemListQuery } from '@radar/contracts';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { itemWhere, type ItemListRequest, type TenantScope } from '../src/features/items/item-query.js';
import { countSql, pageSql } from '../src/features/items/list-page-sql.js';
import { createItemsRepo } from '../src/features/items/items.repo.js';
import { createRelevanceService, type RefreshOutcome } from '../src/features/relevance/relevance.service.js';
import { triageLens } from '../src/features/triage/triage-lens.js';
import { fixedClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { withBenchDatabase } from './bench-db.js';
import { topBuffers } from './explain.js';
import { queryOf } from './scenarios.js';
import { seedItems } from './seed-items.js';
import { percentile } from './stats.js';

const dialect = new PgDialect();
const log = createLogger('silent');

/** The refresh: 200 tenants, each with about 3,000 items (the live roadmap and two thirds of the posts). */
const TENANTS = 200;
const REFRESH_ITEMS = 3_400;
/** Days of usage kept per tenant and workload (13 months, as the usage read keeps them). */
const USAGE_DAYS = 395;
const CHANGED_ITEMS = 100;
/** The list: the items bench's 100,000 items, 20 tenants (2 public), 8 tenants a post, as the tenant-list bench. */
const LIST_TENANTS = 20;
const PUBLIC_TENANTS = 2;
const TENANTS_PER_POST = 8;
const RUNS = 30;

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const count = (n: number) => n.toLocaleString('en-US');

/** Tenants with licences read (every third with Copilot too) and usage read, their counts spread over the levels. */
async function seedTenants(database: Database, now: Date, n: number, publicCount: number, days: number): Promise<number[]> {
  const { rows } = await database.pool.query<{ id: number }>(
    `INSERT INTO tenants (name, directory_id, visibility, licensed_products, usage_at)
     SELECT 'Tenant ' || lpad(g::text, 3, '0'), lpad(g::text, 8, '0') || '-0000-4000-8000-000000000000',
            CASE WHEN g <= $2 THEN 'public' ELSE 'private' END,
            ARRAY['Microsoft Teams', 'Exchange Online', 'SharePoint Online', 'SharePoint', 'OneDrive', 'Microsoft OneDrive', 'Word', 'Excel',
                  'PowerPoint', 'Outlook', 'OneNote', 'Microsoft 365 apps', 'Microsoft Purview', 'Microsoft Entra', 'Microsoft Intune']
              || CASE WHEN g % 3 = 0 THEN ARRAY['Microsoft Copilot (Microsoft 365)'] ELSE ARRAY[]::text[] END,
            $3::timestamptz
     FROM generate_series(1, $1::int) AS g RETURNING id`,
    [n, publicCount, now],
  );
  const ids = rows.map((r) => r.id);
  // Each workload's active users: a share of 1,000 licensed that differs per tenant and workload, moving a little per day.
  await database.pool.query(
    `INSERT INTO tenant_usage (tenant_id, report_date, workload, active_users, licensed_users, period_days, read_at)
     SELECT t, ($2::date - d), w, ((t * 37 + length(w) * 53) % 100) * 10 + d % 7, 1000,
            CASE WHEN w IN ('word', 'excel', 'powerpoint', 'outlook', 'onenote', 'm365apps') THEN 1 ELSE 30 END, $3::timestamptz
     FROM unnest($1::int[]) AS t, generate_series(0, $4::int - 1) AS d,
          unnest(ARRAY['exchange','onedrive','sharepoint','teams','yammer','m365apps','copilot','word','excel','powerpoint','outlook','onenote']) AS w`,
    [ids, now.toISOString().slice(0, 10), now, days],
  );
  return ids;
}

/**
 * Posts received, each by `perPost` tenants from a window that moves with the post: written straight into
 * items.tenant_ids (what relevance and the list read), not through item_tenants, whose trigger recomputes the item's
 * list per link (minutes for 100,000+ links) and is not what is measured here.
 */
async function linkPosts(database: Database, ids: number[], perPost: number): Promise<void> {
  await database.pool.query(
    `UPDATE items i SET tenant_ids = ARRAY(SELECT DISTINCT ($1::int[])[1 + ((i.id + k) % $2::int)] FROM generate_series(0, $3::int - 1) AS k ORDER BY 1)
     WHERE i.source = 'messages'`,
    [ids, ids.length, perPost],
  );
}

async function timeEach(ids: number[], refresh: (id: number) => Promise<RefreshOutcome>) {
  const times: number[] = [];
  let written = 0;
  let rows = 0;
  const started = performance.now();
  for (const id of ids) {
    const t0 = performance.now();
    const outcome = await refresh(id);
    times.push(performance.now() - t0);
    written += outcome.written;
    rows += outcome.rows;
  }
  times.sort((a, b) => a - b);
  return { total: performance.now() - started, p50: percentile(times, 50), p95: percentile(times, 95), written, rows };
}

async function refreshSection(): Promise<string> {
  return withBenchDatabase({ poolMax: 4 }, async (database) => {
    const now = new Date();
    await seedItems(database.pool, now, REFRESH_ITEMS, () => undefined);
    const ids = await seedTenants(database, now, TENANTS, 0, USAGE_DAYS);
    // Two thirds of the posts per tenant.
    await linkPosts(database, ids, Math.round((TENANTS * 2) / 3));
    await database.pool.query('VACUUM ANALYZE');
    const relevance = createRelevanceService({ db: database.db, clock: fixedClock(now), log, config: loadConfig({}) });
    const lines: string[] = [];
    const row = (name: string, r: Awaited<ReturnType<typeof timeEach>>, note: string) =>
      lines.push(`| ${name} | ${ms(r.p50)} | ${ms(r.p95)} | ${(r.total / 1000).toFixed(1)} s | ${count(r.written)} | ${note} |`);
    const first = await timeEach(ids, (id) => relevance.refreshTenant(id));
    row('first refresh (nothing kept yet)', first, `${count(first.rows / TENANTS)} rows a tenant`);
    await database.pool.query('VACUUM ANALYZE item_relevance');
    row('again, nothing changed', await timeEach(ids, (id) => relevance.refreshTenant(id)), 'what every run of a tenant costs');
    // A day's usage read: every count moves (each tenant's newest day is read again).
    await database.pool.query(`UPDATE tenant_usage SET active_users = active_users + 3 WHERE report_date = $1::date`, [now.toISOString().slice(0, 10)]);
    row('after a usage read changed every count', await timeEach(ids, (id) => relevance.refreshTenant(id)), 'each usage-based reason rewritten');
    // A roadmap sync that changed 100 items' products: the sync's hook refreshes them for every tenant.
    const { rows: changed } = await database.pool.query<{ id: number }>(
      `UPDATE items SET products = ARRAY['Microsoft Teams', 'Exchange Online'] WHERE id IN (
         SELECT id FROM items WHERE source = 'roadmap' AND NOT is_removed AND NOT products @> ARRAY['Microsoft Teams'] ORDER BY id LIMIT $1) RETURNING id`,
      [CHANGED_ITEMS],
    );
    const t0 = performance.now();
    const items = await relevance.refreshItems(changed.map((r) => r.id));
    const itemsMs = performance.now() - t0;
    lines.push(
      `| ${CHANGED_ITEMS} changed roadmap items, every tenant (the sync's hook) | | | ${(itemsMs / 1000).toFixed(1)} s | ${count(items.written)} | ${Math.ceil(TENANTS / 25)} transactions of up to 25 tenants |`,
    );
    const { rows: size } = await database.pool.query<{ rows: number; bytes: string }>(
      `SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('item_relevance')) AS bytes FROM item_relevance`,
    );
    return [
      `${TENANTS} tenants, each with the ${count(Math.round(REFRESH_ITEMS * 0.7))} live roadmap items and about two thirds of ${count(Math.round(REFRESH_ITEMS * 0.3))}`,
      `posts (${count(first.rows / TENANTS)} items a tenant), 13 months of usage per tenant and workload (${count(TENANTS * USAGE_DAYS * 12)} counts), licences`,
      `read. Each tenant refreshed one after the other, as its job does after its run (in production up to`,
      `GRAPH_MAX_CONCURRENT_TENANTS at once); ${size[0]?.rows ? count(size[0].rows) : 0} rows kept, ${size[0]?.bytes ?? '?'} with their indexes.`,
      '',
      '| refresh | p50 a tenant | p95 a tenant | all tenants | rows written | note |',
      '|---|---:|---:|---:|---:|---|',
      ...lines,
    ].join('\n');
  });
}

interface ListCase {
  name: string;
  path: string;
  scope: TenantScope;
}

async function listSection(): Promise<string> {
  return withBenchDatabase({ poolMax: 4 }, async (database) => {
    const now = new Date();
    await seedItems(database.pool, now, undefined, () => undefined);
    const ids = await seedTenants(database, now, LIST_TENANTS, PUBLIC_TENANTS, 1);
    await linkPosts(database, ids, TENANTS_PER_POST);
    await database.pool.query('VACUUM ANALYZE');
    const relevance = createRelevanceService({ db: database.db, clock: fixedClock(now), log, config: loadConfig({}) });
    const fill = await timeEach(ids, (id) => relevance.refreshTenant(id));
    await database.pool.query('VACUUM ANALYZE item_relevance');
    const { rows: levels } = await database.pool.query<{ level: number; n: number }>(
      'SELECT level, count(*)::int AS n FROM item_relevance GROUP BY level ORDER BY level DESC',
    );
    const user: TenantScope = { granted: [ids[PUBLIC_TENANTS]!] };
    const cases: ListCase[] = [
      { name: 'user, default list (no relevance: the baseline)', path: '/api/unified/items', scope: user },
      { name: 'user, High', path: '/api/unified/items?relevance=high', scope: user },
      { name: 'user, Low', path: '/api/unified/items?relevance=low', scope: user },
      { name: 'user, High, page 20', path: '/api/unified/items?relevance=high&page=20', scope: user },
      { name: 'user, High posts', path: '/api/unified/items?relevance=high&sources=messages', scope: user },
      { name: `admin (${LIST_TENANTS} tenants), High`, path: '/api/unified/items?relevance=high', scope: 'all' },
      { name: 'user, Relevant to us first', path: '/api/unified/items?sortField=relevance', scope: user },
      { name: 'user, Relevant to us first, page 20', path: '/api/unified/items?sortField=relevance&page=20', scope: user },
      { name: 'user, Relevant to us first, ascending', path: '/api/unified/items?sortField=relevance&sortDirection=asc', scope: user },
      { name: 'admin, Relevant to us first', path: '/api/unified/items?sortField=relevance', scope: 'all' },
      { name: 'user, Medium, Relevant to us first', path: '/api/unified/items?relevance=medium&sortField=relevance', scope: user },
    ];
    const repo = createItemsRepo(database.pool, { countCacheEntries: 0, jsonCacheChars: 0, triage: triageLens });
    const rows: string[] = [];
    for (const c of cases) {
      const q: ItemListRequest = { ...itemListQuery.parse(queryOf(c.path)), tenantScope: c.scope };
      await repo.list(q, now);
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        total = (await repo.list(q, now)).total;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const explain = async (s: { sql: string; params: unknown[] }) =>
        topBuffers((await database.pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.sql}`, s.params)).rows.map((r) => r['QUERY PLAN'] as string));
      const page = await explain(dialect.sqlToQuery(pageSql(q, now, null, (q.page - 1) * q.limit, undefined, { triage: triageLens })));
      const counted = await explain(dialect.sqlToQuery(countSql(itemWhere(q, now, null, 'all', triageLens))));
      rows.push(
        `| ${c.name} | \`${c.path.replace('/api/unified/items', '') || '(none)'}\` | ${count(total)} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${count(page.hit + page.read)} | ${count(counted.hit + counted.read)} |`,
      );
    }
    // The page map of a signed-in answer: the highest level of 50 items among the caller's tenants.
    const page = (await repo.list({ ...itemListQuery.parse({}), tenantScope: user }, now)).rows.map((r) => r.id);
    const mapTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await relevance.highestOf(page, user, undefined);
      mapTimes.push(performance.now() - t0);
    }
    mapTimes.sort((a, b) => a - b);
    const { rows: links } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM item_relevance');
    return [
      `The items bench's 100,000 items (70,000 roadmap, 30,000 posts, 4,000 removed), ${LIST_TENANTS} tenants (${PUBLIC_TENANTS} public), each post`,
      `received by ${TENANTS_PER_POST}. Relevance kept through the service (${count(links[0]?.n ?? 0)} rows: ${levels.map((l) => `${['Unknown', 'Low', 'Medium', 'High'][l.level]} ${count(l.n)}`).join(', ')}),`,
      `written in ${(fill.total / 1000).toFixed(0)} s (${(fill.p50 / 1000).toFixed(1)} s a tenant of ${count(fill.rows / LIST_TENANTS)} items). The list's page and total with the`,
      `totals cache off (every request counts anew), ${RUNS} runs each after a warm-up, in process; the user sees the 2 public tenants`,
      'and one private one given to them. Buffers (shared hit + read) of one EXPLAIN (ANALYZE, BUFFERS) of the page and the count.',
      '',
      '| caller and view | query | total | p50 | p95 | page buffers | count buffers |',
      '|---|---|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `The page map of a signed-in answer (each of 50 items' highest level, tenant and reason): p50 ${ms(percentile(mapTimes, 50))}, p95 ${ms(percentile(mapTimes, 95))}.`,
    ].join('\n');
  });
}

/**
 * Relevance's costs: keeping it (a tenant's refresh after its run, the changed items after a sync) for 200 tenants of
 * 3,000 items, and the list filtered and sorted by it at 100,000 items.
 */
async function run(): Promise<string> {
  // Each part is printed when done: the whole takes minutes, and a stopped run keeps what it measured.
  const refresh = await refreshSection();
  process.stdout.write(`${refresh}\n\n`);
  const list = await listSection();
  return [
    'api/bench/relevance.bench.ts.',
    '',
    '### Keeping it: 200 tenants × 3,000 items',
    '',
    refresh,
    '',
    '### The list by relevance at 100,000 items',
    '',
    list,
  ].join('\n');
}

export default { title: 'Relevance: keeping it for 200 tenants, the list by it at 100,000 items', run };
