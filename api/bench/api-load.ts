/**
 * The items bench's load runs: a scenario against a server process, with the CPU the api process(es) and the
 * PostgreSQL server spent per request over the measured run, and the results table with the speed goals (docs/benchmarks.md).
 */
import type { ServerProcess } from './api-process.js';
import { runLoad, type LoadResult } from './load.js';
import { GOALS, type Scenario } from './scenarios.js';

export const CONCURRENCY = 10;
const WARM_UP_REQUESTS = 300;
const MAX_REQUESTS = 20_000;
const MAX_MS = 10_000;

export interface Measured {
  mode: string;
  scenario: Scenario;
  result: LoadResult;
  /** CPU ms per request of the api process (all its workers), and of the PostgreSQL server. */
  apiCpuMs: number;
  pgCpuMs: number | null;
}

export async function measure(mode: string, server: ServerProcess, scenario: Scenario, pgCpuSeconds: () => number | null, maxMs = MAX_MS): Promise<Measured> {
  // Warm-up: connections, JIT, caches (one pass over distinct paths would warm a cache they are meant to miss: skip it).
  const warmPaths = scenario.paths.length > WARM_UP_REQUESTS ? ['/api/unified/items?page=2'] : scenario.paths;
  const headers = scenario.headers;
  await runLoad({ base: server.url, paths: warmPaths, concurrency: CONCURRENCY, maxRequests: WARM_UP_REQUESTS, maxMs: 10_000, headers });
  const api0 = server.cpuSeconds();
  const pg0 = pgCpuSeconds();
  const result = await runLoad({ base: server.url, paths: scenario.paths, concurrency: CONCURRENCY, maxRequests: MAX_REQUESTS, maxMs, headers });
  const api1 = server.cpuSeconds();
  const pg1 = pgCpuSeconds();
  const m = {
    mode,
    scenario,
    result,
    apiCpuMs: ((api1 - api0) * 1000) / result.requests,
    pgCpuMs: pg0 === null || pg1 === null ? null : ((pg1 - pg0) * 1000) / result.requests,
  };
  process.stdout.write(
    `  [${mode}] ${scenario.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(1)} p95 ${result.p95.toFixed(1)} ms, api CPU ${m.apiCpuMs.toFixed(2)} ms/req, postgres ${m.pgCpuMs?.toFixed(2) ?? '?'} ms/req\n`,
  );
  return m;
}

/** The baseline's numbers in the same shape (no PostgreSQL). */
export async function measureBaseline(mode: string, server: ServerProcess, bytes: number, maxMs = MAX_MS): Promise<Measured> {
  const scenario: Scenario = { name: `bare node:http answering the same ${Math.round(bytes / 1024)} KB`, goal: null, paths: ['/api/unified/items'] };
  return measure(mode, server, scenario, () => null, maxMs);
}

export function met(m: Measured): string {
  const goal = m.scenario.goal ? GOALS[m.scenario.goal] : null;
  if (!goal) return '';
  const ok = m.result.p95 <= goal.p95Ms && m.result.rps >= goal.rps && m.result.errors === 0;
  const what = goal.rps ? `p95 ≤ ${goal.p95Ms} ms, ≥ ${goal.rps.toLocaleString('en-US')}/s` : `p95 ≤ ${goal.p95Ms} ms`;
  return `${ok ? 'yes' : '**no**'} (${what})`;
}

export function loadTable(rows: Measured[]): string[] {
  const f = (n: number, d = 1) => n.toFixed(d);
  return [
    '| setup | scenario | requests | errors | req/s | p50 ms | p95 ms | p99 ms | KB/answer | api CPU ms/req | postgres CPU ms/req | goal met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (m) =>
        `| ${m.mode} | ${m.scenario.name} | ${m.result.requests} | ${m.result.errors} | ${f(m.result.rps, 0)} | ${f(m.result.p50)} | ${f(m.result.p95)} | ${f(m.result.p99)} | ${f(m.result.bodyBytes / 1024)} | ${f(m.apiCpuMs, 2)} | ${m.pgCpuMs === null ? '–' : f(m.pgCpuMs, 2)} | ${met(m)} |`,
    ),
  ];
}
