/**
 * Two api checkouts side by side under the processes bench's load: the cached default list at 100,000 items, each
 * checkout in one process and in `WEB_CONCURRENCY=2`, all four started on one seeded database and loaded by wrk in
 * rounds whose order alternates (A one, A two, B one, B two, then backwards), so the machine's drift between rounds
 * falls on both alike. Prints every round and the medians; writes nothing to docs/benchmarks.md.
 *
 * A change to the hot path is judged this way, not by two runs of the processes bench: this machine's speed moves by
 * ±15 % within minutes, and only rounds of the same run compare.
 *
 *   git worktree add --detach ../radar-before HEAD~1   # the checkout to compare with (link its node_modules)
 *   npx tsx --conditions=source bench/compare-processes.ts ../radar-before/api/src/main.ts src/main.ts [rounds]
 */
import fs from 'node:fs';
import path from 'node:path';
import { measureCpu, postmasterPid, startApi, type ServerProcess } from './api-process.js';
import { withBenchDatabase } from './bench-db.js';
import { seedItems, settleAsInstalled } from './seed-items.js';
import { median } from './stats.js';
import { runWrk, WRK, wrkAvailable } from './wrk.js';

const LIST = '/api/unified/items';
const SECONDS = 8;
const CONNECTIONS = 32;

const [entryA, entryB, roundsArg] = process.argv.slice(2);
if (!entryA || !entryB) throw new Error('usage: compare-processes.ts <entry A> <entry B> [rounds, default 5]');
for (const entry of [entryA, entryB]) if (!fs.existsSync(entry)) throw new Error(`no api entry at ${entry}`);
if (!wrkAvailable()) throw new Error(`wrk not found at ${WRK} (apt-get install wrk): the Node generator cannot load two processes on two cores`);
const rounds = Number(roundsArg ?? 5);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`rounds must be a whole number of at least 1, not "${roundsArg}"`);

interface Round {
  rps: number;
  /** CPU seconds of the server processes per request, in µs. */
  apiMicros: number;
  /** Cores PostgreSQL kept busy. */
  postgresCores: number;
}

await withBenchDatabase({ poolMax: 4, database: 'radar_compare_processes' }, async (database) => {
  const now = new Date();
  process.stdout.write('seeding 100,000 items\n');
  await seedItems(database.pool, now, undefined, () => {});
  await settleAsInstalled(database.db, now);
  await database.pool.query('VACUUM (ANALYZE) items');
  const pgPid = postmasterPid(database.dataDir);
  const setups: { name: string; server: ServerProcess; rounds: Round[] }[] = [];
  try {
    for (const [label, entry] of [
      ['A', entryA],
      ['B', entryB],
    ] as const) {
      const where = path.resolve(entry);
      setups.push({ name: `${label} one process`, server: await startApi({ databaseUrl: database.url, entry: where }), rounds: [] });
      setups.push({
        name: `${label} two processes`,
        server: await startApi({ databaseUrl: database.url, entry: where, env: { WEB_CONCURRENCY: '2' } }),
        rounds: [],
      });
    }
    const load = async (s: ServerProcess) => {
      const r = await runWrk({ base: s.url, paths: [LIST], connections: CONNECTIONS, seconds: SECONDS, headers: { 'Accept-Encoding': 'br' } });
      if (r.errors > 0) throw new Error(`${s.url} answered ${r.errors} errors under load`);
      return r;
    };
    // Warm-up: JIT, the answer cache, connections.
    for (const s of setups) await load(s.server);
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 ? [...setups].reverse() : setups) {
        const { result: r, serverCores, postgresCores } = await measureCpu(s.server, pgPid, () => load(s.server));
        s.rounds.push({ rps: r.rps, apiMicros: (serverCores / r.rps) * 1e6, postgresCores });
        process.stdout.write(`round ${round + 1} ${s.name}: ${r.rps.toFixed(0)} req/s, api cores ${serverCores.toFixed(2)}\n`);
      }
    }
    const rows = setups.map((s) => {
      const m = (pick: (r: Round) => number) => median(s.rounds.map(pick));
      return `| ${s.name} | **${m((r) => r.rps).toFixed(0)}** (${s.rounds.map((r) => r.rps.toFixed(0)).join(', ')}) | ${m((r) => r.apiMicros).toFixed(1)} | ${m((r) => r.postgresCores).toFixed(2)} |`;
    });
    const rps = (i: number) => median(setups[i]!.rounds.map((r) => r.rps));
    process.stdout.write(
      [
        '',
        `A = ${entryA}, B = ${entryB}; ${rounds} rounds of ${SECONDS} s, wrk with ${CONNECTIONS} connections, medians.`,
        '',
        '| setup | req/s, median (each round) | api CPU µs a request | PostgreSQL cores |',
        '|---|---:|---:|---:|',
        ...rows,
        '',
        `B against A: one process ${((100 * rps(2)) / rps(0) - 100).toFixed(0)} %, two processes ${((100 * rps(3)) / rps(1) - 100).toFixed(0)} %; two over one: A ${(rps(1) / rps(0)).toFixed(2)}×, B ${(rps(3) / rps(2)).toFixed(2)}×.`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const s of setups) await s.server.stop();
  }
});
