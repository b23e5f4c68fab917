/**
 * Where the api's CPU goes under the items bench's load: starts the api (BENCH_API_ENTRY or src/main.ts) under
 * `node --cpu-prof` on the database the items bench keeps in BENCH_PG_DIR (run `BENCH_PG_DIR=… npm run bench --
 * items` once first), loads one scenario, stops it and prints the top frames by self time, and by package.
 *   BENCH_PG_DIR=/tmp/radar-bench npx tsx --conditions=source bench/profile.ts [scenario-substring] [ENV=value …]
 * BENCH_PROFILE_DATABASE=radar_real profiles the recorded real feeds (the items bench's `real` mode keeps them there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { startApi } from './api-process.js';
import { CONCURRENCY } from './api-load.js';
import { runLoad } from './load.js';
import { SCENARIOS } from './scenarios.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per frame and per package (node_modules/<pkg>, node: internals, our src/), as shares of the total, over
 * the samples between `fromMs` and `toMs` after the profile's start (the measured load, not start-up or warm-up).
 */
export function summarise(profile: Profile, window: { fromMs: number; toMs: number }, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window.fromMs * 1000 || at > window.toMs * 1000) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const frames = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const where = f.url.replace(/^file:\/\//, '');
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith('node:') ? where : where ? (/\/(api\/src|contracts\/src)\//.exec(where)?.[1] ?? 'other') : `(${f.functionName || 'program'})`);
    const name = `${f.functionName || '(anonymous)'} ${where ? `${path.basename(where)}:${f.lineNumber + 1}` : ''}`.trim();
    frames.set(name, (frames.get(name) ?? 0) + us);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `total sampled: ${(total / 1e6).toFixed(2)} s`,
    '',
    '| package / area | self time |',
    '|---|---:|',
    ...sorted(packages).map(([k, v]) => `| ${k} | ${pct(v)} |`),
    '',
    '| frame | self time |',
    '|---|---:|',
    ...sorted(frames).map(([k, v]) => `| \`${k}\` | ${pct(v)} |`),
  ].join('\n');
}

async function main() {
  const dataDir = process.env.BENCH_PG_DIR;
  if (!dataDir) throw new Error('set BENCH_PG_DIR to the items bench database (run the items bench with it once)');
  const [filter = 'default list', ...envArgs] = process.argv.slice(2);
  const env = Object.fromEntries(envArgs.map((a) => a.split('=') as [string, string]));
  const scenario = SCENARIOS.find((s) => s.name.includes(filter));
  if (!scenario) throw new Error(`no scenario matches "${filter}"`);
  // BENCH_PROFILE_DATABASE=radar_real: the recorded real feeds the items bench's `real` mode synced there.
  const databaseName = process.env.BENCH_PROFILE_DATABASE ?? 'radar_bench';
  const pg = await startEmbeddedPostgres({ dataDir, persistent: true, database: databaseName });
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-profile-'));
  try {
    const spawned = Date.now();
    const api = await startApi({ databaseUrl: pg.url(databaseName), env, cpuProfileDir: profileDir });
    const window = { fromMs: 0, toMs: 0 };
    try {
      await runLoad({ base: api.url, paths: scenario.paths, concurrency: CONCURRENCY, maxRequests: 300, maxMs: 10_000 });
      window.fromMs = Date.now() - spawned;
      const cpu0 = api.cpuSeconds();
      const r = await runLoad({ base: api.url, paths: scenario.paths, concurrency: CONCURRENCY, maxRequests: 20_000, maxMs: 10_000 });
      window.toMs = Date.now() - spawned;
      const cpuMs = ((api.cpuSeconds() - cpu0) * 1000) / r.requests;
      process.stdout.write(
        `${scenario.name} ${JSON.stringify(env)}: ${r.requests} requests, ${r.rps.toFixed(0)}/s, p95 ${r.p95.toFixed(1)} ms, api CPU ${cpuMs.toFixed(3)} ms/request (with profiling on)\n`,
      );
    } finally {
      await api.stop();
    }
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the api wrote no CPU profile');
    process.stdout.write(
      `${summarise(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as Profile, window)}\n(profile: ${path.join(profileDir, file)})\n`,
    );
  } finally {
    await pg.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
