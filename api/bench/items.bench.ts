/**
 * Items API speed with 100,000 items: the default list, filtered lists and searches at 10 concurrent clients
 * against the api in its own process (one, or a cluster), beside a bare node:http baseline; the recorded real feeds;
 * and the CSV export of every row (constant memory). Real embedded PostgreSQL, the real app
 * on a loopback port, load from a worker thread.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { applyMigrations, connectDatabase } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';
import { postmasterPid, processTreeCpuSeconds, startApi, startBaseline, type ServerProcess } from './api-process.js';
import { CONCURRENCY, loadTable, measure, measureBaseline, met, type Measured } from './api-load.js';
import { executionMs, explainPath, topBuffers } from './explain.js';
import { PAYLOAD_HEADER, payloadRows } from './payload.js';
import { loadRealFeeds, realFeedsAvailable } from './real-feeds.js';
import { withBenchDatabase } from './bench-db.js';
import type { Bench } from './run.js';
import { FAST_PATH_PARTS } from '../src/http/fast-path/parts.js';
import { distinctSearches, EXPLAIN_ONLY, REAL_FEED_SCENARIOS, SCENARIOS } from './scenarios.js';
import { ITEMS, REMOVED, ROADMAP_SHARE, seedItems, WORDS, settleAsInstalled } from './seed-items.js';

/** Shared buffers (hit + read) and time of each scenario request's page and count queries, warm (run twice). */
async function bufferTable(pool: import('pg').Pool, now: Date): Promise<string[]> {
  const lines = ['| request | page: buffers | page: ms | count: buffers | count: ms |', '|---|---:|---:|---:|---:|'];
  for (const s of [...SCENARIOS, { paths: EXPLAIN_ONLY }]) {
    for (const p of s.paths) {
      await explainPath(pool, p, now);
      const warm = await explainPath(pool, p, now);
      const b = (plan: string[]) => {
        const t = topBuffers(plan);
        return t.hit + t.read;
      };
      lines.push(
        `| \`${p.replace('/api/unified/items', '') || '(defaults)'}\` | ${b(warm.page)} | ${executionMs(warm.page)} | ${b(warm.count)} | ${executionMs(warm.count)} |`,
      );
    }
  }
  return lines;
}

async function explain(pool: import('pg').Pool, label: string, p: string, now: Date): Promise<string> {
  const r = await explainPath(pool, p, now);
  const short = (lines: string[]) =>
    lines
      .filter((l) => /Scan|Sort|Limit|Aggregate|BitmapOr|BitmapAnd|Nested Loop|Buffers|Execution Time|Gather/.test(l))
      .slice(0, 24)
      .join('\n');
  return `**${label}** (\`${p}\`)\n\n\`\`\`\npage:\n${short(r.page)}\ncount:\n${short(r.count)}\n\`\`\`\n`;
}

/**
 * The setups the load runs in (BENCH_MODES, comma-separated; default all): `single` (one api process, the default),
 * `cluster` (WEB_CONCURRENCY=2), `nocache` (LIST_CACHE_MB=0: every list answer computed), `real` (the recorded
 * real feeds), `export` (CSV export memory), `explain` (buffers and plans), `fastpath` (the cached default list and a
 * signed-in style request through Express with FAST_PATH all, off, and each part off: what each part buys).
 */
const MODES = new Set((process.env.BENCH_MODES ?? 'single,cluster,nocache,real,export,explain,fastpath').split(',').map((m) => m.trim()));

/** FAST_PATH values the `fastpath` mode compares: nothing, each part alone, and everything. */
const FAST_PATH_VARIANTS = [...new Set(['off', ...FAST_PATH_PARTS, 'all'])];
const fastPathLabel = (value: string) => `FAST_PATH=${value}`;

/** The distinct words of four letters or more in the titles of the items at `url`, most frequent first. */
async function realTitleWords(url: string): Promise<string[]> {
  const database = connectDatabase(url, undefined, { max: 1 });
  try {
    const { rows } = await database.pool.query<{ word: string }>(
      `SELECT word FROM items, regexp_split_to_table(lower(title), '[^a-z0-9]+') AS word
       WHERE length(word) >= 4 GROUP BY word ORDER BY count(*) DESC, word`,
    );
    return rows.map((r) => r.word);
  } finally {
    await database.close();
  }
}

const bench: Bench = {
  title: 'Items API: list, filters, search and export with 100,000 items',
  async run() {
    // BENCH_PG_DIR keeps the seeded database between runs (for tuning); by default a throw-away one is used.
    return withBenchDatabase({ poolMax: 20, database: 'radar_bench', keepDir: process.env.BENCH_PG_DIR }, async (database) => {
      const { dataDir } = database;
      /** The server's URL of another database on it. */
      const urlOf = (name: string) => database.url.replace(/\/[^/]*$/, `/${name}`);
      let httpServer: import('node:http').Server | undefined;
      try {
        const now = new Date();
        const t0 = Date.now();
        const { rows: existing } = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM items');
        const reused = existing[0]!.n === ITEMS + REMOVED;
        // The real feeds have a database of their own: run alone (BENCH_MODES=real), nothing is seeded.
        const seeded = [...MODES].some((mode) => mode !== 'real');
        if (seeded && !reused) {
          await database.pool.query('TRUNCATE items CASCADE');
          await seedItems(database.pool, now);
        }
        // Without it the api's start-up rewrote the 100,000 items while the first scenario ran (its p95 read 96-134 ms).
        await settleAsInstalled(database.db, now);
        const seedSeconds = (Date.now() - t0) / 1000;
        // Steady state, as in production where autovacuum follows every sync: statistics current (the planner's row
        // estimates, the lower(status) expression statistics) and the visibility map set, without which the list's
        // index-only scans would visit the table for every entry. Right after a bulk load neither holds. Also run on
        // a reused database (BENCH_PG_DIR), where a new migration may just have built indexes; cheap when clean.
        const v0 = Date.now();
        await database.pool.query('VACUUM (ANALYZE) items');
        await database.pool.query('VACUUM (ANALYZE) triage_records');
        const vacuumSeconds = (Date.now() - v0) / 1000;
        const { rows: sizeRows } = await database.pool.query(`SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size('items')) AS size FROM items`);

        const pgPid = postmasterPid(dataDir);
        const pgCpu = () => (pgPid ? processTreeCpuSeconds(pgPid) : null);
        const databaseUrl = database.url;
        const measured: Measured[] = [];
        const payload: string[] = [];
        const ratios: string[] = [];
        const loadAtStart = os.loadavg().slice(0, 3);
        const withApi = async <T>(env: Record<string, string>, url: string, run: (api: ServerProcess) => Promise<T>): Promise<T> => {
          const api = await startApi({ databaseUrl: url, env, cpuProfileDir: process.env.BENCH_CPU_PROFILE_DIR });
          try {
            return await run(api);
          } finally {
            await api.stop();
          }
        };
        /**
         * The bare baseline answering `body` with `workers` processes, and the list's share of its requests/s: the two
         * are loaded in turn, a few seconds each, three times, and the share is the median of the three pairs, so a
         * change in the machine's other load between them moves both.
         */
        const baseline = async (mode: string, api: ServerProcess, body: Buffer, workers: number) => {
          const server = await startBaseline(body, workers);
          try {
            const pairs: { list: Measured; bare: Measured }[] = [];
            for (let round = 0; round < 3; round++) {
              const list = await measure(mode, api, { ...SCENARIOS[0]!, name: 'default list, alternating with the bare server' }, pgCpu, 3_000);
              const bare = await measureBaseline(mode, server, body.length, 3_000);
              pairs.push({ list, bare });
            }
            pairs.sort((a, b) => a.list.result.rps / a.bare.result.rps - b.list.result.rps / b.bare.result.rps);
            const median = pairs[1]!;
            measured.push(median.list, median.bare);
            const share = (p: { list: Measured; bare: Measured }) => `${Math.round((100 * p.list.result.rps) / p.bare.result.rps)}%`;
            ratios.push(
              `${mode}: the default list at **${share(median)}** of the bare server (${workers} process${workers > 1 ? 'es' : ''}): ` +
                `${median.list.result.rps.toFixed(0)} vs ${median.bare.result.rps.toFixed(0)} req/s (median of 3 alternating pairs: ${pairs.map(share).join(', ')})`,
            );
          } finally {
            await server.stop();
          }
        };
        const defaultBody = async (api: ServerProcess) => Buffer.from(await (await fetch(`${api.url}/api/unified/items`)).arrayBuffer());
        const targetScenarios = SCENARIOS.filter((x) => x.goal);
        const distinct = distinctSearches(WORDS, 30_000);

        if (MODES.has('single')) {
          const mode = 'one process';
          await withApi({}, databaseUrl, async (api) => {
            for (const s of [...SCENARIOS, distinct]) measured.push(await measure(mode, api, s, pgCpu));
            payload.push(...payloadRows('100,000 items, default page', await defaultBody(api)));
            await baseline(mode, api, await defaultBody(api), 1);
          });
        }
        if (MODES.has('cluster')) {
          const mode = 'WEB_CONCURRENCY=2';
          await withApi({ WEB_CONCURRENCY: '2' }, databaseUrl, async (api) => {
            for (const s of [...targetScenarios, distinct]) measured.push(await measure(mode, api, s, pgCpu));
            await baseline(mode, api, await defaultBody(api), 2);
          });
        }
        if (MODES.has('nocache')) {
          const mode = 'LIST_CACHE_MB=0';
          await withApi({ LIST_CACHE_MB: '0' }, databaseUrl, async (api) => {
            for (const s of targetScenarios) measured.push(await measure(mode, api, s, pgCpu));
          });
        }
        if (MODES.has('fastpath')) {
          // The default list (anonymous: the lane's request) and the session check (a parameterless route through Express
          // that reads nothing from the database, so a slow query cannot blur what the framework costs).
          const paths = [
            { name: 'default list, cached', goal: null, paths: ['/api/unified/items'] },
            { name: 'session check, signed out', goal: null, paths: ['/api/auth/session-user'] },
          ];
          // A pass that is not recorded first: right after seeding, PostgreSQL's own background work blurs a first run.
          await withApi({}, databaseUrl, async (api) => {
            for (const s of paths) await measure('warm-up', api, s, pgCpu, 5_000);
          });
          for (const value of FAST_PATH_VARIANTS) {
            await withApi({ FAST_PATH: value }, databaseUrl, async (api) => {
              for (const s of paths) measured.push(await measure(fastPathLabel(value), api, s, pgCpu));
            });
          }
        }
        let realItems: number | null = null;
        if (MODES.has('real') && realFeedsAvailable()) {
          await ensureDatabase(urlOf('postgres'), 'radar_real');
          await applyMigrations(urlOf('radar_real'));
          const real = connectDatabase(urlOf('radar_real'), undefined, { max: 4 });
          try {
            await real.pool.query('TRUNCATE items CASCADE');
            realItems = await loadRealFeeds(real);
            await real.pool.query('VACUUM (ANALYZE) items');
          } finally {
            await real.close();
          }
          const mode = 'real feeds, one process';
          // Searches no cache can answer, made of the words of the feeds' own titles (the seeded vocabulary would
          // mostly match nothing here).
          const titleWords = await realTitleWords(urlOf('radar_real'));
          const realDistinct = { ...distinctSearches(titleWords, 30_000), name: 'real feeds: search, every query new (words of real titles)' };
          await withApi({}, urlOf('radar_real'), async (api) => {
            for (const s of [...REAL_FEED_SCENARIOS, realDistinct]) measured.push(await measure(mode, api, s, pgCpu));
            payload.push(...payloadRows('real feeds, default page', await defaultBody(api)));
            await baseline(mode, api, await defaultBody(api), 1);
          });
        }
        const loadAtEnd = os.loadavg().slice(0, 3);
        const cachedList = measured.find((m) => m.mode === 'one process' && m.scenario === SCENARIOS[0]);

        // Export: streamed; RSS sampled while it runs. Run for 30% and for 100% of the rows: with constant memory
        // the peak growth does not scale with the row count.
        // Live heap = heapUsed right after a forced full GC: unlike RSS it does not count garbage V8 has not
        // collected yet, so it shows what the export actually keeps in memory.
        const exportLines: string[] = [];
        if (MODES.has('export')) {
          // In this process (the api's memory is what is measured, and a forced GC needs its heap).
          const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:8080' });
          const base = {
            config,
            db: database.db,
            pool: database.pool,
            log: createLogger('silent'),
            clock: systemClock,
            secret: 'bench-secret-bench-secret-bench-secret-0123',
            publicUrl: 'http://127.0.0.1:8080',
          };
          const app = createApp({ ...base, services: createServices(base) });
          httpServer = await new Promise((resolve) => {
            const srv = app.listen(0, '127.0.0.1', () => resolve(srv));
          });
          const baseUrl = `http://127.0.0.1:${(httpServer!.address() as AddressInfo).port}`;
          v8.setFlagsFromString('--expose-gc');
          const gc = vm.runInNewContext('gc') as () => void;
          const liveHeap = () => {
            gc();
            return process.memoryUsage().heapUsed;
          };
          const exportRun = async (query: string) => {
            const rssBefore = process.memoryUsage().rss;
            const heapBefore = liveHeap();
            let peak = rssBefore;
            let peakHeap = heapBefore;
            const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
            const heapSampler = setInterval(() => (peakHeap = Math.max(peakHeap, liveHeap())), 250);
            const e0 = Date.now();
            const res = await fetch(`${baseUrl}/api/dashboard/export${query}`);
            let bytes = 0;
            let records = 0;
            let previous = 0;
            for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
              bytes += chunk.length;
              for (let i = 0; i < chunk.length; i++) {
                if (chunk[i] === 0x0a && previous === 0x0d) records++;
                previous = chunk[i]!;
              }
            }
            clearInterval(sampler);
            clearInterval(heapSampler);
            return {
              rows: records - 1,
              mb: bytes / 2 ** 20,
              seconds: (Date.now() - e0) / 1000,
              growthMb: (peak - rssBefore) / 2 ** 20,
              beforeMb: rssBefore / 2 ** 20,
              heapGrowthMb: (peakHeap - heapBefore) / 2 ** 20,
            };
          };
          const partial = await exportRun('?sources=messages');
          const full = await exportRun('');
          const exportLine = (label: string, e: Awaited<ReturnType<typeof exportRun>>) =>
            `| ${label} | ${e.rows.toLocaleString('en-US')} | ${e.mb.toFixed(1)} | ${e.seconds.toFixed(1)} | ${(e.rows / e.seconds).toFixed(0)} | ${e.beforeMb.toFixed(0)} | ${e.growthMb.toFixed(1)} | ${e.heapGrowthMb.toFixed(1)} |`;
          process.stdout.write(
            `  export: ${full.rows} rows, ${full.seconds.toFixed(1)} s, RSS +${full.growthMb.toFixed(1)} MB, live heap +${full.heapGrowthMb.toFixed(1)} MB (30%: +${partial.heapGrowthMb.toFixed(1)} MB)\n`,
          );
          exportLines.push(
            `**Export** (\`GET /api/dashboard/export\`, in the bench's own process): ${full.rows === ITEMS ? 'every one of the' : '**NOT ALL** of the'} ${ITEMS.toLocaleString('en-US')} rows. ` +
              `Peak RSS growth is of the whole bench process (api server + the client reading the download), sampled every 20 ms:`,
            '',
            '| export | rows | MB | s | rows/s | RSS before MB | peak RSS growth MB | peak live-heap growth MB |',
            '|---|---|---|---|---|---|---|---|',
            exportLine('messages only (30%)', partial),
            exportLine('everything (100%)', full),
            '',
            'The server reads 1,000 rows at a time from a server-side cursor (`DECLARE … CURSOR` on a dedicated connection) and ' +
              'writes through csv-stringify with backpressure, so the live heap (measured after a forced GC every 250 ms) stays flat as the row ' +
              'count grows; RSS growth is mostly garbage V8 has not collected yet (its young/old generation sizing), not data kept.',
            '',
          );
        }

        const explainLines: string[] = [];
        if (MODES.has('explain')) {
          const buffers = await bufferTable(database.pool, now);
          const plans = [
            await explain(database.pool, 'Default list', '/api/unified/items', now),
            await explain(database.pool, 'Filtered: products + (roadmap statuses OR message tags)', SCENARIOS[1]!.paths[0]!, now),
            await explain(database.pool, 'Filtered: messages with a tag, page 2', SCENARIOS[1]!.paths[3]!, now),
            await explain(database.pool, 'Search', SCENARIOS[2]!.paths[0]!, now),
            await explain(database.pool, 'Archive (includeRemoved)', '/api/unified/items?includeRemoved=true', now),
            await explain(database.pool, 'Date slips: moved in the last 30 days', '/api/unified/items?releaseMoved=30days', now),
            await explain(database.pool, 'Date slips: most slipped first', '/api/unified/items?sortField=releaseMoves', now),
            await explain(database.pool, 'Since the last visit (3 days ago)', EXPLAIN_ONLY[0]!, now),
          ];
          explainLines.push(
            '**Database work per computed answer** (`EXPLAIN (ANALYZE, BUFFERS)` of the same SQL as the api, warm; shared buffers hit + read, deterministic, unlike the latencies). ' +
              'A cached answer or total does none of it until the data version or the time bucket moves:',
            '',
            ...buffers,
            '',
            '<details><summary>Query plans (EXPLAIN (ANALYZE, BUFFERS), same SQL as the api)</summary>',
            '',
            ...plans,
            '</details>',
          );
        }

        const passed = measured.filter((m) => m.scenario.goal && met(m).startsWith('yes')).length;
        const goals = measured.filter((m) => m.scenario.goal).length;
        return [
          (seeded
            ? `Data: ${(sizeRows[0].n - REMOVED).toLocaleString('en-US')} items in the feeds plus ${REMOVED.toLocaleString('en-US')} removed or expired ones (the archive) ` +
              `(${Math.round(ROADMAP_SHARE * 100)}% roadmap, the rest Message Center; realistic products, statuses, tags, cloud instances; a tenth of the roadmap with release date moves; ` +
              `descriptions of about 30 words, message bodies of about 150 words of HTML), table + indexes ${sizeRows[0].size}; ${reused ? 'seeded earlier (BENCH_PG_DIR)' : `seeded in ${seedSeconds.toFixed(0)} s`}; ` +
              `then \`VACUUM (ANALYZE) items\` (${vacuumSeconds.toFixed(1)} s) for the steady state autovacuum keeps in production (current statistics, visibility map set for index-only scans).`
            : 'Data: the real feeds only (BENCH_MODES=real: the 100,000 items were not seeded).') +
            (realItems === null
              ? ''
              : ` Real feeds: the recorded Roadmap and Message Center snapshots of 2026-01-31 and 2026-02-07 synced into a second database (${realItems.toLocaleString('en-US')} listed items).`),
          `Machine load average (1 / 5 / 15 min): ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')} when the load started, ${loadAtEnd.map((n) => n.toFixed(1)).join(' / ')} when it ended, on ${os.cpus().length} cores. ` +
            'Anything well above 0 means other processes shared the CPUs: latencies and requests/s are then pessimistic, and the CPU per request depends far less on it.',
          `Load: ${CONCURRENCY} concurrent clients (node:http, keep-alive, in a worker thread of the bench) on loopback against the api started as \`npm start\` runs it ` +
            '(src/main.ts in its own process, NODE_ENV=production, LOG_LEVEL=info with a log line per request) and a real embedded PostgreSQL 18 on the same machine; ' +
            'a warm-up, then up to 20,000 requests or 10 s per scenario. "api CPU" is the user + system CPU time of the api process and its cluster workers (from /proc, ' +
            'the counters `process.cpuUsage()` reads) over the measured requests; "postgres CPU" the same for the database server. ' +
            `Goals: lists p95 ≤ 20 ms and ≥ 1,000 requests/s, searches p95 ≤ 40 ms: ${passed} of ${goals} met in this run.`,
          '',
          ...loadTable(measured),
          '',
          ...(ratios.length
            ? [
                "Share of the stack's ceiling (goal: the list at ≥ 50% of the bare server answering the same bytes, measured in the same run):",
                '',
                ...ratios.map((r) => `- ${r}`),
                '',
              ]
            : []),
          ...(payload.length
            ? [
                '**Payload** of a list answer: every row carries its sanitised description or body; the alternative would leave them out and the item dialog fetch them on open (medians of 40 runs in the bench process):',
                '',
                ...PAYLOAD_HEADER,
                ...payload,
                '',
              ]
            : []),
          ...(cachedList ? [`api CPU per cached list answer: **${cachedList.apiCpuMs.toFixed(2)} ms** (goal ≤ 1 ms).`, ''] : []),
          ...exportLines,
          ...explainLines,
        ].join('\n');
      } finally {
        if (httpServer) {
          httpServer.closeAllConnections();
          await new Promise<void>((r) => httpServer!.close(() => r()));
        }
      }
    });
  },
};
export default bench;
