/**
 * Tuning aid: the real app against an already running, already seeded database (DATABASE_URL), loaded by the bench's
 * load generator; run under `node --cpu-prof` to see where the api's CPU goes.
 *   DATABASE_URL=… npx tsx --conditions=source bench/serve-load.ts [scenario-substring] [requests]
 */
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import type { AppContext } from '../src/app-context.js';
import { loadConfig } from '../src/config.js';
import { connectDatabase } from '../src/db/client.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { createServices } from '../src/services.js';
import { runLoad } from './load.js';
import { SCENARIOS } from './scenarios.js';

const database = connectDatabase(process.env.DATABASE_URL!, undefined, { max: 20 });
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1:8080' });
const base = {
  config,
  db: database.db,
  pool: database.pool,
  log: createLogger('silent'),
  clock: systemClock,
  secret: 'bench-secret-bench-secret-bench-secret-0123',
  publicUrl: 'http://127.0.0.1:8080',
};
const ctx: AppContext = { ...base, services: createServices(base) };
const server = createApp(ctx).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const filter = process.argv[2] ?? '';
const requests = Number(process.argv[3] ?? 1000);
for (const s of SCENARIOS.filter((x) => x.name.includes(filter))) {
  await runLoad({ base: url, paths: s.paths, concurrency: 10, maxRequests: 100, maxMs: 10_000 });
  const cpu0 = process.cpuUsage();
  const r = await runLoad({ base: url, paths: s.paths, concurrency: 10, maxRequests: requests, maxMs: 20_000 });
  const cpu = process.cpuUsage(cpu0);
  // CPU of this process (api + load worker) per request: unlike latency, barely affected by other load on the machine.
  const perReq = (cpu.user + cpu.system) / 1000 / r.requests;
  process.stdout.write(
    `${s.name}: n ${r.requests} err ${r.errors} rps ${r.rps.toFixed(0)} p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} p99 ${r.p99.toFixed(1)} node cpu/req ${perReq.toFixed(2)} ms\n`,
  );
}
server.close();
await database.close();
