/**
 * Where a cold page load's main-thread time goes: starts the built product as the page-load bench does (real feeds
 * when present), loads one page cold in Chromium with a DevTools trace, and prints the renderer main thread's tasks
 * in time order (start, duration, what ran: script evaluation per file, compile, parse, style, layout, paint), then
 * the totals per kind. A tool for tuning, not a bench: its output is read, not recorded.
 *   npx tsx --conditions=source bench/trace-page.ts [/dashboard] [min-task-ms]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startBuiltProduct } from '../test/built-product.js';
import { CHROMIUM_ARGS, PAGES, startFeeds } from './pageload.bench.js';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; frame?: string }; name?: string };
}

const pagePath = process.argv[2] ?? '/dashboard';
const minMs = Number(process.argv[3] ?? 1);
const spec = PAGES.find((p) => p.path === pagePath);
if (!spec) throw new Error(`no page spec for ${pagePath}; one of ${PAGES.map((p) => p.path).join(', ')}`);

const { feeds } = await startFeeds();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-trace-'));
fs.chmodSync(work, 0o755);
const product = await startBuiltProduct({ dataDir: path.join(work, 'data'), feeds, env: { FEED_TIMEOUT_MS: '60000', LOG_LEVEL: 'error' } });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  for (let round = 0; round < 2; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const traceFile = path.join(work, `trace-${round}.json`);
    await browser.startTracing(page, {
      path: traceFile,
      categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
    });
    const started = Date.now();
    await page.goto(product.baseUrl + spec.path, { waitUntil: 'commit' });
    await page.locator(spec.selector).first().waitFor({ timeout: 30_000 });
    const seenMs = Date.now() - started;
    await page.waitForTimeout(300);
    await browser.stopTracing();
    await context.close();
    if (round === 0) continue; // warm-up: server caches and JIT, as the bench does
    const events = (JSON.parse(fs.readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = events.find(
      (e) =>
        e.name === 'thread_name' &&
        (e.args as { name?: string } | undefined)?.name === 'CrRendererMain' &&
        events.some((x) => x.pid === e.pid && x.name === 'EvaluateScript'),
    );
    if (!main) throw new Error('no renderer main thread in the trace');
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
    const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationStart' || e.name === 'markAsMainFrame') ?? onMain[0]!;
    const t0 = nav.ts;
    const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts);
    const kinds = new Map<string, number>();
    process.stdout.write(`${spec.path}: key element seen by the driver after ${seenMs} ms (driver clock)\n`);
    for (const task of tasks) {
      const dur = task.dur! / 1000;
      const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
      for (const e of inside)
        if (
          /^(EvaluateScript|v8\.compile|v8\.parseOnBackground|ParseHTML|UpdateLayoutTree|Layout|Paint|FunctionCall|v8\.compileModule|EventDispatch|TimerFire|FireAnimationFrame|ParseAuthorStyleSheet|GCEvent|MinorGC|MajorGC|V8\.GC.*)$/.test(
            e.name,
          )
        ) {
          // Only the outermost of each kind (nested calls count once).
          const nested = inside.some((o) => o !== e && o.name === e.name && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && (o.ts < e.ts || o.dur! > e.dur!));
          if (!nested) kinds.set(e.name, (kinds.get(e.name) ?? 0) + e.dur! / 1000);
        }
      if (dur < minMs) continue;
      const what = inside
        .filter((e) => e.dur! / 1000 >= Math.max(0.5, dur / 10) && e.name !== 'RunTask')
        .map(
          (e) =>
            `${e.name}${e.args?.data?.url ? ` ${e.args.data.url.replace(product.baseUrl, '')}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''} ${(e.dur! / 1000).toFixed(1)}`,
        )
        .slice(0, 6)
        .join(' | ');
      process.stdout.write(`${((task.ts - t0) / 1000).toFixed(0).padStart(6)} ms  ${dur.toFixed(1).padStart(6)} ms  ${what}\n`);
    }
    process.stdout.write('\ntotals (outermost events of each kind, ms):\n');
    for (const [name, ms] of [...kinds].sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${name.padEnd(28)} ${ms.toFixed(1)}\n`);
  }
} finally {
  await browser.close();
  await product.stop();
  await feeds.close();
  fs.rmSync(work, { recursive: true, force: true });
}
