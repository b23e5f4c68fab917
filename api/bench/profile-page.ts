/**
 * Where a cold page load's JavaScript time goes, by source: starts the built product as the page-load bench does
 * (real feeds when present), loads one page cold in Chromium with the V8 sampling profiler on until the page's key
 * element shows, maps every sample through the bundles' source maps and prints self time by package and by source
 * file. A tool for tuning, not a bench: its output is read, not recorded.
 *   npx tsx --conditions=source bench/profile-page.ts [/dashboard] [rounds]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { REPO_ROOT, startBuiltProduct } from '../test/built-product.js';
import { APPS, packageOf } from './bundle-report.js';
import { CHROMIUM_ARGS, PAGES, startFeeds } from './pageload.bench.js';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const pagePath = process.argv[2] ?? '/dashboard';
const rounds = Number(process.argv[3] ?? 3);
const spec = PAGES.find((p) => p.path === pagePath);
if (!spec) throw new Error(`no page spec for ${pagePath}; one of ${PAGES.map((p) => p.path).join(', ')}`);

const consumers = new Map<string, { app: string; consumer: SourceMapConsumer } | null>();
function sourceOf(url: string, line: number, column: number): { pkg: string; file: string } | undefined {
  const clean = new URL(url).pathname;
  if (!clean.endsWith('.js')) return undefined;
  if (!consumers.has(clean)) {
    const [prefix, dir] = APPS.find(([p]) => clean.startsWith(p))!;
    const file = path.join(REPO_ROOT, dir, 'dist', clean.slice(prefix.length));
    consumers.set(
      clean,
      fs.existsSync(`${file}.map`) ? { app: dir, consumer: new SourceMapConsumer(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as RawSourceMap) } : null,
    );
  }
  const entry = consumers.get(clean);
  if (!entry) return { pkg: '(no source map)', file: clean };
  const pos = entry.consumer.originalPositionFor({ line: line + 1, column });
  if (!pos.source) return { pkg: '(webpack + federation runtime glue)', file: clean };
  return { pkg: packageOf(pos.source, entry.app), file: pos.source.replace(/^webpack:\/\/[^/]+\//, '') };
}

const { feeds } = await startFeeds();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-profile-page-'));
fs.chmodSync(work, 0o755);
const product = await startBuiltProduct({ dataDir: path.join(work, 'data'), feeds, env: { FEED_TIMEOUT_MS: '60000', LOG_LEVEL: 'error' } });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const byPackage = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
try {
  for (let round = 0; round <= rounds; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const started = Date.now();
    await page.goto(product.baseUrl + spec.path, { waitUntil: 'commit' });
    await page.locator(spec.selector).first().waitFor({ timeout: 30_000 });
    const seen = Date.now() - started;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await context.close();
    if (round === 0) continue; // warm-up: server caches, as the bench does
    process.stdout.write(`round ${round}: key element after ${seen} ms\n`);
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const us = profile.timeDeltas[i] ?? 0;
      const f = nodes.get(id)!.callFrame;
      if (f.functionName === '(idle)') return;
      total += us;
      const src = f.url ? sourceOf(f.url, f.lineNumber, f.columnNumber) : undefined;
      const pkg = src?.pkg ?? `(${f.functionName || 'program'})`;
      const file = src ? `${src.file}` : pkg;
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
      byFile.set(file, (byFile.get(file) ?? 0) + us);
    });
  }
} finally {
  await browser.close();
  await product.stop();
  await feeds.close();
}
const ms = (us: number) => (us / 1000 / rounds).toFixed(1);
const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
process.stdout.write(`\nbusy main-thread JS per load (not idle): ${ms(total)} ms\n\n| package | ms per load |\n|---|---:|\n`);
for (const [k, v] of top(byPackage, 20)) process.stdout.write(`| ${k} | ${ms(v)} |\n`);
process.stdout.write(`\n| source file | ms per load |\n|---|---:|\n`);
for (const [k, v] of top(byFile, 40)) process.stdout.write(`| ${k} | ${ms(v)} |\n`);
process.exit(0);
