/**
 * HTTP load from a worker thread (its own event loop, so the client does not steal the server's), loopback only:
 * `concurrency` clients, each on its own keep-alive connection (node:http, far cheaper per request than fetch, so
 * more of the 2 cores are left to the server under test), loop over `paths` until `maxRequests` in total are done
 * or `maxMs` has passed.
 */
import { Worker } from 'node:worker_threads';
import { percentile } from './stats.js';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
  /** Bytes of an answer body, the mean over the answers (what a request transfers; scenarios rotate paths). */
  bodyBytes: number;
}

const WORKER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { base, paths, concurrency, maxRequests, maxMs, headers } = workerData;
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
function get(path) {
  return new Promise((resolve) => {
    const req = http.get({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c) => { bytes += c.length; });
      res.on('end', () => resolve({ ok: res.statusCode === 200, bytes }));
      res.on('error', () => resolve({ ok: false, bytes }));
    });
    req.on('error', () => resolve({ ok: false, bytes: 0 }));
  });
}
(async () => {
  const latencies = [];
  let errors = 0;
  let issued = 0;
  let allBytes = 0;
  const started = performance.now();
  async function client() {
    for (;;) {
      if (issued >= maxRequests || performance.now() - started > maxMs) return;
      const path = paths[issued++ % paths.length];
      const t0 = performance.now();
      const r = await get(path);
      if (!r.ok) errors++;
      allBytes += r.bytes;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, () => client()));
  agent.destroy();
  parentPort.postMessage({ latencies, errors, ms: performance.now() - started, bodyBytes: latencies.length ? allBytes / latencies.length : 0 });
})();
`;

export function runLoad(opts: {
  base: string;
  paths: string[];
  concurrency: number;
  maxRequests: number;
  maxMs: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(opts.base)) throw new Error('load runs against loopback only');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { headers: {}, ...opts } });
    worker.once('error', reject);
    worker.once('message', (m: { latencies: number[]; errors: number; ms: number; bodyBytes: number }) => {
      void worker.terminate();
      const pct = (p: number) => percentile(m.latencies, p);
      resolve({
        requests: m.latencies.length,
        errors: m.errors,
        seconds: m.ms / 1000,
        p50: pct(50),
        p95: pct(95),
        p99: pct(99),
        max: pct(100),
        rps: m.latencies.length / (m.ms / 1000),
        bodyBytes: m.bodyBytes,
      });
    });
  });
}
