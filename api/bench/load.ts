/**
 * HTTP load from a worker thread (its own event loop, so the client does not steal the server's), loopback only:
 * `concurrency` clients each loop over `paths` until `maxRequests` in total are done or `maxMs` has passed.
 */
import { Worker } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rps: number;
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { base, paths, concurrency, maxRequests, maxMs } = workerData;
(async () => {
  const latencies = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  async function client(n) {
    for (;;) {
      if (issued >= maxRequests || performance.now() - started > maxMs) return;
      const path = paths[issued++ % paths.length];
      const t0 = performance.now();
      try {
        const res = await fetch(base + path);
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
      } catch { errors++; }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, n) => client(n)));
  parentPort.postMessage({ latencies, errors, ms: performance.now() - started });
})();
`;

export function runLoad(opts: { base: string; paths: string[]; concurrency: number; maxRequests: number; maxMs: number }): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(opts.base)) throw new Error('load runs against loopback only');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: opts });
    worker.once('error', reject);
    worker.once('message', (m: { latencies: number[]; errors: number; ms: number }) => {
      void worker.terminate();
      const sorted = [...m.latencies].sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
      resolve({
        requests: sorted.length,
        errors: m.errors,
        seconds: m.ms / 1000,
        p50: pct(50),
        p95: pct(95),
        p99: pct(99),
        max: sorted[sorted.length - 1] ?? NaN,
        rps: sorted.length / (m.ms / 1000),
      });
    });
  });
}
