/**
 * The api as the bench measures it: its own process (or cluster of processes) started from src/main.ts exactly as
 * `npm start` runs it (NODE_ENV=production, the default LOG_LEVEL=info writing a line per request to a discarded
 * stdout), on a database the bench prepared; and the bare baseline, a minimal node:http server answering fixed
 * bytes, so the ratio of the stack to what Node itself can serve on this machine is visible.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/lib/free-port.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** CPU seconds (user + system) of the process and its children (cluster workers) so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Runs `load` against `server` and reads, from /proc, the cores the server's processes and PostgreSQL (the process
 * tree of `pgPid`, when known) kept busy meanwhile: CPU seconds over the load's wall-clock seconds.
 */
export async function measureCpu<T>(
  server: ServerProcess,
  pgPid: number | null,
  load: () => Promise<T>,
): Promise<{ result: T; serverCores: number; postgresCores: number }> {
  const pgCpu = () => (pgPid ? processTreeCpuSeconds(pgPid) : 0);
  const cpu0 = server.cpuSeconds();
  const pg0 = pgCpu();
  const t0 = performance.now();
  const result = await load();
  const seconds = (performance.now() - t0) / 1000;
  return { result, serverCores: (server.cpuSeconds() - cpu0) / seconds, postgresCores: (pgCpu() - pg0) / seconds };
}

/** The PostgreSQL server's process id (its postmaster.pid), whose process tree does the database work. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

interface ProcStat {
  parent: number;
  /** User + system CPU seconds of the process itself. */
  cpu: number;
  /** User + system CPU seconds of its children that ended and were reaped. */
  reaped: number;
}

/** Every process of `root`'s tree (root included), with its /proc counters (those process.cpuUsage() reads). */
function processTree(root: number): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(entry), {
        parent: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) / 100,
        reaped: (Number(fields[13]) + Number(fields[14])) / 100,
      });
    } catch {
      // The process ended while we read.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, depth = 0; p && depth < 10; p = all.get(p)?.parent, depth++) if (p === root) return true;
    return false;
  };
  return new Map([...all].filter(([pid]) => inTree(pid)));
}

/**
 * CPU seconds of `root` and every descendant, plus what the descendants that already ended spent (the root's
 * reaped-children counters: PostgreSQL backends end when the api's pool closes an idle connection).
 */
export function processTreeCpuSeconds(root: number): number {
  const tree = processTree(root);
  let total = tree.get(root)?.reaped ?? 0;
  for (const { cpu } of tree.values()) total += cpu;
  return total;
}

export const TASKSET = '/usr/bin/taskset';

/**
 * Keeps `root`'s process tree (every thread of every process) on `cpus` (a taskset list: "0,1", "2-3"); processes it
 * starts later inherit the setting (PostgreSQL's backends, a cluster's replacement workers).
 */
export function pinProcessTree(root: number, cpus: string): void {
  for (const pid of processTree(root).keys()) execFileSync(TASKSET, ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
}

/** The CPUs `pid` may run on, as the kernel reports them ("0,1"). */
export function allowedCpus(pid: number): string {
  return /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';
}

async function waitUntilUp(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} before it answered`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer ${url} within 120 s`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * Starts the api from `entry` (default src/main.ts; the bench's before/after comparison points it at another
 * checkout's) with tsx, as a production process on `databaseUrl`. `env` adds settings (WEB_CONCURRENCY, LIST_CACHE_MB).
 */
export async function startApi(opts: { databaseUrl: string; env?: Record<string, string>; entry?: string; cpuProfileDir?: string }): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-bench-api-'));
  const entry = opts.entry ?? process.env.BENCH_API_ENTRY ?? path.resolve(here, '../src/main.ts');
  const profile = opts.cpuProfileDir ? [`--cpu-prof`, `--cpu-prof-dir=${opts.cpuProfileDir}`] : [];
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ...profile, entry], {
    cwd: path.resolve(here, '..'),
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATABASE_URL: opts.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      JOBS_ENABLED: 'false',
      DEMO_DATA: 'off',
      // Every bench client is 127.0.0.1: the cache-miss budget would measure itself, not the answers.
      CACHE_MISS_BUDGET: '0',
      // Weigh the fast path's parts: FAST_PATH=off (or a list of parts) on the bench's command line reaches the api.
      ...(process.env.FAST_PATH ? { FAST_PATH: process.env.FAST_PATH } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return serverProcess(child, `http://127.0.0.1:${port}`, 'the api', dataDir);
}

const BASELINE = `
const http = require('node:http');
const cluster = require('node:cluster');
const fs = require('node:fs');
const [file, port, workers, spin] = process.argv.slice(2);
// Work, not time: a loop that waits for the clock also counts the time the scheduler gave another process, so it
// would cost less CPU with two processes than with one. The loop's speed is measured once, before any request.
let sink = 0;
const work = (n) => {
  let x = sink;
  for (let i = 0; i < n; i++) x = (x * 31 + i) | 0;
  sink = x;
};
const measured = () => {
  work(1e7);
  const t0 = process.hrtime.bigint();
  work(5e7);
  return Math.round(Number(spin) * (5e7 / (Number(process.hrtime.bigint() - t0) / 1000)));
};
// Measured once, by the primary, and handed to the workers: every process does the same work.
const iterations = cluster.isPrimary ? (Number(spin) > 0 ? measured() : 0) : Number(process.env.SPIN_ITERATIONS);
if (cluster.isPrimary && Number(workers) > 1) {
  for (let i = 0; i < Number(workers); i++) cluster.fork({ SPIN_ITERATIONS: String(iterations) });
} else {
  const body = fs.readFileSync(file);
  http.createServer((req, res) => {
    if (req.url === '/healthz') return res.end('ok');
    if (iterations > 0) work(iterations);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }).listen(Number(port), '127.0.0.1');
}
`;

/**
 * A minimal node:http server (in `workers` processes) answering `body` to every request: the stack's ceiling. With
 * `spinMicros` it first does that much work (as long as the loop took on a quiet CPU at start) on every request, so it
 * costs what a heavier server costs and shows what code of that cost whose processes share nothing can reach on the
 * same cores.
 */
export async function startBaseline(body: Buffer, workers = 1, spinMicros = 0): Promise<ServerProcess> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-bench-baseline-'));
  const file = path.join(dir, 'body.json');
  fs.writeFileSync(file, body);
  // A file, not \`node -e\`: cluster workers re-run the primary's script.
  const script = path.join(dir, 'baseline.cjs');
  fs.writeFileSync(script, BASELINE);
  const child = spawn(process.execPath, [script, file, String(port), String(workers), String(spinMicros)], { stdio: ['ignore', 'ignore', 'inherit'] });
  return serverProcess(child, `http://127.0.0.1:${port}`, 'the baseline server', dir);
}

/** The started `child` once it answers `url`/healthz (stopped if it never does); `stop` also removes `tempDir`. */
async function serverProcess(child: ChildProcess, url: string, what: string, tempDir: string): Promise<ServerProcess> {
  const stop = stopper(child);
  try {
    await waitUntilUp(`${url}/healthz`, child, what);
  } catch (err) {
    await stop();
    fs.rmSync(tempDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    pid: child.pid!,
    cpuSeconds: () => processTreeCpuSeconds(child.pid!),
    stop: async () => {
      await stop();
      fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
