/**
 * Searches no cache can answer at 100,000 and 1,000,000 items: 10 clients each sending searches never asked before
 * (a word and the prefix of another, drawn from the seeded text's vocabulary) against the api in its own production
 * process; then, in this process, each query's plan for a sample of those searches: the page, the total as the api
 * counts it (exact up to EXACT_SEARCH_TOTAL matches, estimated past it) and the exact count every match would cost,
 * with the estimates beside the true totals. BENCH_SEARCH_SIZES (comma-separated) chooses the sizes.
 */
import os from 'node:os';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { itemListQuery } from '@radar/contracts';
import { itemWhere, searchPlan } from '../src/features/items/item-query.js';
import { estimateRows } from '../src/features/items/items.repo.js';
import { cappedCountSql, countSql, ESTIMATE_MARGIN, EXACT_SEARCH_TOTAL, pageSql, RANK_WINDOW } from '../src/features/items/list-page-sql.js';
import { postmasterPid, processTreeCpuSeconds, startApi } from './api-process.js';
import { executionMs, topBuffers } from './explain.js';
import { BROWSER_ENCODINGS, measureWrkLoad, wrkAvailable } from './wrk.js';
import { CONCURRENCY, loadTable, measure, type Measured } from './api-load.js';
import { withBenchDatabase } from './bench-db.js';
import type { Bench } from './run.js';
import { distinctSearches, queryOf } from './scenarios.js';
import { seedItems, WORDS, settleAsInstalled } from './seed-items.js';
import { median } from './stats.js';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000').split(',').map((s) => Number(s.trim()));
/** p95 targets of a search no cache can answer, by size. */
const TARGET_P95_MS: Record<number, number> = { 100_000: 50, 1_000_000: 150 };
/** What a browser sends (Chromium's header): the api answers it with brotli. */
/** Searches whose plans are taken after the load (spread over the load's list). */
const SAMPLE = 40;

const dialect = new PgDialect();

interface Explained {
  path: string;
  ms: number;
  buffers: number;
  plan: string[];
}

async function explain(pool: pg.Pool, query: { sql: string; params: unknown[] }, p: string): Promise<Explained> {
  const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON, SUMMARY ON) ${query.sql}`, query.params);
  const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  const { hit, read } = topBuffers(plan);
  return { path: p, ms: executionMs(plan), buffers: hit + read, plan };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

async function runSize(size: number): Promise<string[]> {
  return withBenchDatabase({ poolMax: 10, database: 'radar_search' }, async (database) => {
    const now = new Date();
    const t0 = Date.now();
    process.stdout.write(`  seeding ${size.toLocaleString('en-US')} items\n`);
    await seedItems(database.pool, now, size, () => undefined);
    await settleAsInstalled(database.db, now);
    const seedSeconds = (Date.now() - t0) / 1000;
    await database.pool.query('VACUUM (ANALYZE) items');
    const { rows: sizeRows } = await database.pool.query(
      `SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size('items')) AS size, pg_size_pretty(pg_relation_size('items_search_gin')) AS gin FROM items`,
    );
    const pgPid = postmasterPid(database.dataDir);
    // Two runs never share a search: the Node generator's from the first half, wrk's from the second.
    // As a browser asks: the answers are compressed (each search's once, as it is made).
    const all = { ...distinctSearches(WORDS, 60_000), headers: BROWSER_ENCODINGS };
    const distinct = { ...all, paths: all.paths.slice(0, 30_000) };
    const label = `${(size / 1000).toLocaleString('en-US')}k items`;
    process.stdout.write(`  ${label}: seeded in ${seedSeconds.toFixed(0)} s; load\n`);
    const api = await startApi({ databaseUrl: database.url });
    const pgCpu = () => (pgPid ? processTreeCpuSeconds(pgPid) : null);
    let loaded: Measured;
    let light: Measured | undefined;
    try {
      loaded = await measure(`${label}, Node generator`, api, { ...distinct, goal: null }, pgCpu);
      if (wrkAvailable()) {
        const { apiCpuMs, pgCpuMs, ...r } = await measureWrkLoad(api, pgPid, {
          paths: all.paths.slice(30_000),
          connections: CONCURRENCY,
          seconds: 10,
          headers: BROWSER_ENCODINGS,
        });
        light = {
          mode: `${label}, wrk (generator ${r.generatorCores.toFixed(2)} cores)`,
          scenario: { ...distinct, goal: null },
          result: { ...r, bodyBytes: loaded.result.bodyBytes },
          apiCpuMs,
          pgCpuMs,
        };
      }
    } finally {
      await api.stop();
    }
    // Judged on the lighter generator when there is one: the Node one takes CPU the server would otherwise have.
    const judged = light ?? loaded;

    // The plans of a sample of the same searches: page, the api's total, and what counting every match costs.
    const step = Math.max(1, Math.floor(Math.min(loaded.result.requests, distinct.paths.length) / SAMPLE));
    const sample = Array.from({ length: SAMPLE }, (_, i) => distinct.paths[i * step]!).filter(Boolean);
    const pages: Explained[] = [];
    const totals: Explained[] = [];
    const exacts: Explained[] = [];
    const errors: number[] = [];
    let approximate = 0;
    let skipped = 0;
    let counted = 0;
    for (const p of sample) {
      const q = itemListQuery.parse(queryOf(p));
      const plan = searchPlan(q.search);
      const where = itemWhere(q, now, plan);
      const estimated = await estimateRows(database.pool, where);
      // As the api reads a first page: the page first; a window that is not full holds every match (its size is the
      // total); a full one of a search that cannot be an id is counted exactly under the margin; a search with an id has
      // a capped count beside its page.
      const underMargin = estimated <= EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN;
      const page = dialect.sqlToQuery(pageSql(q, now, plan, 0));
      const { rows: pageRows } = await database.pool.query<{ windowTotal?: number }>(page.sql, page.params);
      const windowFull = (pageRows[0]?.windowTotal ?? 0) >= RANK_WINDOW;
      const inPage = !windowFull && plan !== null && plan.ids.length === 0;
      const exactCount = windowFull && underMargin && plan !== null && plan.ids.length === 0;
      // As the api counts: a prefix both configurations make alike is asked for once ('counted', 'rankWindow').
      const capped = dialect.sqlToQuery(cappedCountSql(itemWhere(q, now, plan, 'counted'), EXACT_SEARCH_TOTAL));
      const matchesCount = dialect.sqlToQuery(countSql(itemWhere(q, now, plan, 'rankWindow')));
      await explain(database.pool, page, p); // warm
      pages.push(await explain(database.pool, page, p));
      if (inPage) counted++;
      else if (exactCount) totals.push(await explain(database.pool, matchesCount, p));
      else if (underMargin) totals.push(await explain(database.pool, capped, p));
      else skipped++;
      const count = dialect.sqlToQuery(countSql(where));
      exacts.push(await explain(database.pool, count, p));
      const n = (await database.pool.query<{ n: number }>(count.sql, count.params)).rows[0]?.n ?? 0;
      if (!inPage && !exactCount && n > EXACT_SEARCH_TOTAL) {
        approximate++;
        const estimate = underMargin ? Math.max(EXACT_SEARCH_TOTAL + 1, estimated) : estimated;
        errors.push(Math.abs(estimate - n) / n);
      }
    }
    const slowest = [...pages.map((e, i) => ({ e, kind: 'page', i })), ...totals.map((e, i) => ({ e, kind: 'total (as the api counts it)', i }))].sort(
      (a, b) => b.e.ms - a.e.ms,
    )[0]!;
    const target = TARGET_P95_MS[size];
    const met = target
      ? `${judged.result.p95 <= target ? 'yes' : '**no**'} (p95 ≤ ${target} ms, ${light ? 'under wrk' : 'under the Node generator: install wrk for the judged run'})`
      : '';
    const sum = (xs: Explained[]) => ({
      bufMed: median(xs.map((x) => x.buffers)),
      bufMax: Math.max(...xs.map((x) => x.buffers)),
      msMed: median(xs.map((x) => x.ms)),
      msMax: Math.max(...xs.map((x) => x.ms)),
    });
    const row = (name: string, xs: Explained[]) => {
      const s = sum(xs);
      return `| ${name} | ${s.bufMed.toLocaleString('en-US')} | ${s.bufMax.toLocaleString('en-US')} | ${s.msMed.toFixed(1)} | ${s.msMax.toFixed(1)} |`;
    };
    return [
      `### ${size.toLocaleString('en-US')} items`,
      '',
      `${sizeRows[0].n.toLocaleString('en-US')} rows, table + indexes ${sizeRows[0].size} (search index ${sizeRows[0].gin}); seeded, derived and triaged in ${seedSeconds.toFixed(0)} s. Load average at the end: ${os
        .loadavg()
        .slice(0, 3)
        .map((x) => x.toFixed(1))
        .join(' / ')}. Target met: ${met}.`,
      '',
      ...loadTable(light ? [loaded, light] : [loaded]),
      '',
      `Plans of ${sample.length} of the same searches, warm, in the bench's process (\`EXPLAIN (ANALYZE, BUFFERS)\`, the api's SQL):`,
      '',
      '| query | buffers, median | buffers, max | ms, median | ms, max |',
      '|---|---:|---:|---:|---:|',
      row(`page (50 rows, ranked; for ${counted} of them a window that is not full, whose size is the total)`, pages),
      ...(totals.length
        ? [
            row(
              `total as the api counts it beside a full window (every match under the margin; the first ${(EXACT_SEARCH_TOTAL + 1).toLocaleString('en-US')} for a search that can be an id)`,
              totals,
            ),
          ]
        : []),
      row('exact count of every match (before)', exacts),
      '',
      `${skipped} of ${sample.length} searches are put past ${(EXACT_SEARCH_TOTAL * ESTIMATE_MARGIN).toLocaleString('en-US')} matches by the statistics and not counted at all (the total is the estimate); ${counted} have a window that is not full (its size is the total, nothing counted); ${totals.length} are counted beside a full window; ${approximate} have an estimated total${
        errors.length ? `: the estimate is off by ${pct(median(errors))} at the median and ${pct(Math.max(...errors))} at worst` : ''
      }.`,
      '',
      `Slowest query of the sample: the ${slowest.kind} of \`${slowest.e.path}\` (${slowest.e.ms.toFixed(1)} ms, ${slowest.e.buffers.toLocaleString('en-US')} buffers):`,
      '',
      '```',
      ...slowest.e.plan.filter((l) => !/^\s*(Planning|Heap Blocks)/.test(l)).slice(0, 40),
      '```',
      '',
    ];
  });
}

const bench: Bench = {
  title: 'Search no cache can answer, at 100,000 and 1,000,000 items',
  async run() {
    const sections: string[] = [
      "api/bench/search.bench.ts. The items bench's seeded text (70% roadmap, the rest Message Center posts, words of M365 titles and bodies), derived fields and triage records current, `VACUUM (ANALYZE)`; the api in its own production process (`src/main.ts`, one process), 10 clients, every request a search never asked before (a word and the prefix of another, as while typing), so no answer or total is cached, each asking for a compressed answer as a browser does (`Accept-Encoding: gzip, deflate, br, zstd`); up to 10 s per size, first from the bench's Node generator (a worker thread, which spends about as much CPU per request as the api), then from wrk (one C thread, 10 connections, a fraction of that) when it is installed; the target is judged under wrk.",
      '',
    ];
    for (const size of SIZES) sections.push(...(await runSize(size)));
    return sections.join('\n');
  },
};
export default bench;
