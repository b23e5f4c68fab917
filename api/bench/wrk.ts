/**
 * HTTP load from wrk (C, one thread), when it is installed (`apt-get install wrk`; WRK_PATH elsewhere). The bench's
 * own Node generator (load.ts) spends about as much CPU per request as the server it loads: on a two-core machine it
 * takes a core the server under test would otherwise have, which caps what two api processes can show and adds
 * queueing to every latency. wrk spends a small fraction of that. Paths are taken in turn from `paths` (each request
 * a new one while the list lasts), through a Lua script; the generator's own CPU is read with the shell's `times`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processTreeCpuSeconds, TASKSET, type ServerProcess } from './api-process.js';

export const WRK = process.env.WRK_PATH ?? '/usr/bin/wrk';

export function wrkAvailable(): boolean {
  return fs.existsSync(WRK);
}

export interface WrkResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Cores the generator kept busy (its CPU seconds per second of load). */
  generatorCores: number;
}

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export async function runWrk(opts: {
  base: string;
  paths: string[];
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Runs wrk only on these CPUs (a taskset list), away from the servers it loads. */
  cpus?: string;
}): Promise<WrkResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-wrk-'));
  try {
    const script = path.join(dir, 'load.lua');
    fs.writeFileSync(
      script,
      [
        `local paths = { ${opts.paths.map(luaString).join(',\n')} }`,
        ...Object.entries(opts.headers ?? {}).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
        'local i = 0',
        'request = function()',
        '  i = i + 1',
        '  return wrk.format("GET", paths[((i - 1) % #paths) + 1])',
        'end',
        'done = function(summary, latency, requests)',
        '  local e = summary.errors',
        '  io.write(string.format("RESULT %d %d %d %f %f %f %f\\n", summary.requests, e.connect + e.read + e.write + e.status + e.timeout, summary.duration,',
        '    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))',
        'end',
      ].join('\n'),
    );
    const pin = opts.cpus ? `${TASKSET} --cpu-list '${opts.cpus}' ` : '';
    const command = `${pin}"${WRK}" -t1 -c${opts.connections} -d${opts.seconds}s -s '${script}' '${opts.base}'; times`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
    });
    const result = /RESULT (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(out);
    if (!result) throw new Error(`wrk printed no result: ${out}`);
    const [requests, errors, micros, p50, p95, p99, max] = result.slice(1).map(Number) as [number, number, number, number, number, number, number];
    // `times` prints the shell's own user and system time, then its children's: "0m1.234s 0m0.567s".
    const childTimes = out.trim().split('\n').at(-1) ?? '';
    const cpu = [...childTimes.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
    const seconds = micros / 1e6;
    return {
      requests,
      errors,
      seconds,
      rps: requests / seconds,
      p50: p50 / 1000,
      p95: p95 / 1000,
      p99: p99 / 1000,
      max: max / 1000,
      generatorCores: cpu / seconds,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** What a browser asks for: its answers compressed (the searches are measured as readers send them). */
export const BROWSER_ENCODINGS: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br, zstd' };

export interface MeasuredLoad extends WrkResult {
  /** The api's CPU (its process tree) per request over the load's seconds. */
  apiCpuMs: number;
  /** PostgreSQL's CPU (its process tree) per request; null without its process id. */
  pgCpuMs: number | null;
}

/**
 * A wrk load on `server` with the CPU each request cost the server and PostgreSQL, read around the same seconds:
 * the figures the search benches compare, measured one way.
 */
export async function measureWrkLoad(
  server: Pick<ServerProcess, 'url' | 'cpuSeconds'>,
  pgPid: number | null,
  load: { paths: string[]; connections: number; seconds: number; headers?: Record<string, string> },
): Promise<MeasuredLoad> {
  const pgCpu = () => (pgPid ? processTreeCpuSeconds(pgPid) : null);
  const api0 = server.cpuSeconds();
  const pg0 = pgCpu();
  const r = await runWrk({ base: server.url, ...load });
  const pg1 = pgCpu();
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, r.requests);
  return { ...r, apiCpuMs: perRequest(server.cpuSeconds() - api0), pgCpuMs: pg0 === null || pg1 === null ? null : perRequest(pg1 - pg0) };
}
