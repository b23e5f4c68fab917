/**
 * Page load in Chromium: the built product (node api/dist/main.js, as the e2e suites start it) with its feeds
 * replayed locally (the recorded real feeds when ../shared/fixtures/m365 is present, else the shipped demo data),
 * Debian's Chromium driven by playwright-core. Per page: one uncounted warm-up load (server caches and JIT), then
 * LOADS cold loads (fresh browser context each: empty HTTP cache, no cookies but a signed-in admin's session for the
 * signed-in pages), median reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { demoMessagesRaw, demoRoadmapRaw } from '../src/demo/demo-data.js';
import { REPO_ROOT, startBuiltProduct, type BuiltProduct } from '../test/built-product.js';
import { startReplayServer, type ReplayServer } from '../test/replay-server.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { endpointUrl, endpoints } from '@radar/contracts';
import { bundleBreakdown } from './bundle-report.js';
import { measurePageLoad, medianLoad, type PageLoad } from './page-metrics.js';
import { median } from './stats.js';
import { onInterrupt, type Bench } from './run.js';
import { startFloorServer, type FloorServer } from './floor-server.js';
import { paintSection, type PaintRun } from './paint-report.js';

/** Cold loads per page and mode (BENCH_PAGE_LOADS): first-paint times are bimodal (a parser yield or not), so more than a handful. */
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 9);
const KB = 1024;

interface PageSpec {
  path: string;
  keyElement: string;
  selector: string;
  targetMs: number;
  targetJsKb: number;
}

export const PAGES: PageSpec[] = [
  { path: '/dashboard', keyElement: 'first list row', selector: 'table[aria-label="Items"] tbody tr[data-item-id]', targetMs: 500, targetJsKb: 280 },
  { path: '/', keyElement: 'landing heading (h1)', selector: 'main h1', targetMs: 350, targetJsKb: 200 },
];

/**
 * A signed-in admin's first screens (the admin, so /admin has its tabs): each is judged against the guest's /dashboard
 * first row measured in the same run and mode (≤ 1.1×).
 */
export const SIGNED_IN_PAGES: { path: string; keyElement: string; selector: string }[] = [
  { path: '/dashboard', keyElement: 'first list row', selector: PAGES[0].selector },
  { path: '/', keyElement: 'landing heading (h1)', selector: PAGES[1].selector },
  { path: '/notifications', keyElement: 'weekly digest status (its answer shown)', selector: 'section[aria-labelledby="digest-card-title"] .MuiChip-root' },
  { path: '/admin', keyElement: 'first sync history row', selector: 'table[aria-label="Sync history"] tbody tr' },
];
const SIGNED_IN_RATIO = 1.1;
const BENCH_ADMIN = 'bench-admin@example.com';

/** Signs in through the real passwordless flow (sign-up, the mailed code, verify) and returns the session cookie. */
async function signIn(baseUrl: string, sink: SmtpSink, email: string): Promise<{ name: string; value: string }> {
  const headers = { 'Content-Type': 'application/json', Origin: new URL(baseUrl).origin };
  const signup = await fetch(baseUrl + endpointUrl(endpoints.auth.signup), {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, firstName: 'Bench', lastName: 'Admin' }),
  });
  if (!signup.ok) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  // The sign-in code's mail (its subject starts with the code); other mail the product sent the same address first
  // (an earlier mode's product writes to the same sink) is passed over.
  const deadline = Date.now() + 30_000;
  let code: string | undefined;
  while (!code) {
    const mail = await sink.waitFor(email, Math.max(1, deadline - Date.now()));
    code = /^(\d{6}) is your M365 Radar sign-in code$/.exec(mail.subject)?.[1];
  }
  const verify = await fetch(baseUrl + endpointUrl(endpoints.auth.verifyCode), { method: 'POST', headers, body: JSON.stringify({ email, code }) });
  if (!verify.ok) throw new Error(`sign-in failed: ${verify.status} ${await verify.text()}`);
  const pair = verify.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.includes('radar_session='));
  if (!pair) throw new Error('no session cookie after verify-code');
  const at = pair.indexOf('=');
  return { name: pair.slice(0, at), value: pair.slice(at + 1) };
}

/** The same Chromium flags as e2e/playwright.config.ts (no downloaded browsers here: Debian's Chromium). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const REAL_FEEDS_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'm365');
const REAL_FILES = { roadmap: 'roadmap-v1-2026-02-07.json', messages: 'messages-2026-02-07.json' };

export async function startFeeds(): Promise<{ feeds: ReplayServer; dataSet: string }> {
  const real = Object.values(REAL_FILES).every((f) => fs.existsSync(path.join(REAL_FEEDS_DIR, f)));
  if (real) {
    const read = (f: string) => fs.readFileSync(path.join(REAL_FEEDS_DIR, f), 'utf8');
    const feeds = await startReplayServer({
      roadmaps: { real: read(REAL_FILES.roadmap) },
      messages: { real: JSON.parse(read(REAL_FILES.messages)) },
      pageSize: 100,
    });
    return { feeds, dataSet: `the recorded real feeds (${REAL_FILES.roadmap}, ${REAL_FILES.messages})` };
  }
  const now = new Date();
  const feeds = await startReplayServer({ roadmaps: { demo: JSON.stringify(demoRoadmapRaw(now)) }, messages: { demo: demoMessagesRaw(now) }, pageSize: 20 });
  return { feeds, dataSet: `the shipped demo data (${REAL_FEEDS_DIR} not present)` };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const pass = (ok: boolean) => (ok ? 'pass' : '**FAIL**');

/** How the product renders a guest's first screen: on the server (its default) or only in the browser. */
interface RenderMode {
  name: string;
  env: Record<string, string>;
  /** The targets are judged on the product as it ships. */
  judged: boolean;
}

const MODES: RenderMode[] = [
  { name: 'server-rendered (default)', env: {}, judged: true },
  { name: 'rendered in the browser (`SERVER_RENDER=false`)', env: { SERVER_RENDER: 'false' }, judged: false },
];

function pageRows(mode: RenderMode, spec: PageSpec, loads: PageLoad[]): string {
  const ms = median(loads.map((l) => l.keyVisibleMs));
  const live = median(loads.map((l) => l.interactiveMs));
  const jsWire = median(loads.map((l) => l.js.wire));
  const jsDecoded = median(loads.map((l) => l.js.decoded));
  const allWire = median(loads.map((l) => l.all.wire));
  const requests = median(loads.map((l) => l.all.requests));
  const jsRequests = median(loads.map((l) => l.js.requests));
  const cpu = median(loads.map((l) => l.mainThreadMs));
  const script = median(loads.map((l) => l.scriptMs));
  const each = loads.map((l) => Math.round(l.keyVisibleMs)).join(', ');
  const served = loads.filter((l) => l.serverRendered).length;
  const msOver = ms > spec.targetMs ? ` (${Math.round(ms - spec.targetMs)} ms over)` : '';
  const kbOver = jsWire > spec.targetJsKb * KB ? ` (${kb(jsWire - spec.targetJsKb * KB)} over)` : '';
  const judge = (ok: boolean, over: string) => (mode.judged ? `${pass(ok)}${over}` : '—');
  return (
    `| ${mode.name} | \`${spec.path}\` | ${spec.keyElement} | ${served}/${loads.length} | **${Math.round(ms)} ms** (${each}) | ≤ ${spec.targetMs} ms | ${judge(ms <= spec.targetMs, msOver)} | ` +
    `${Math.round(live)} ms | **${kb(jsWire)}** / ${kb(jsDecoded)} (${jsRequests} files) | ≤ ${spec.targetJsKb} KB | ${judge(jsWire <= spec.targetJsKb * KB, kbOver)} | ` +
    `${kb(allWire)} (${requests}) | ${Math.round(cpu)} ms (${Math.round(script)} ms) |`
  );
}

function waterfall(mode: RenderMode, spec: PageSpec, load: PageLoad): string {
  const rows = load.requests.map(
    (r) => `${r.startMs.toFixed(0).padStart(5)} → ${r.endMs.toFixed(0).padStart(5)} ms  ${kb(r.wire).padStart(9)} / ${kb(r.decoded).padStart(9)}  ${r.path}`,
  );
  return [
    `**\`${spec.path}\`**, ${mode.name} (the median load; key element at ${Math.round(load.keyVisibleMs)} ms, live at ${Math.round(load.interactiveMs)} ms, DOMContentLoaded at ${Math.round(load.domContentLoadedMs)} ms): start → end, wire / decoded, path`,
    '',
    '```',
    ...rows,
    '```',
  ].join('\n');
}

async function run(): Promise<string> {
  const { feeds, dataSet } = await startFeeds();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-bench-web-'));
  // The embedded PostgreSQL runs as its own user when we are root and must reach its data directory inside.
  fs.chmodSync(work, 0o755);
  let product: BuiltProduct | undefined;
  let browser: Browser | undefined;
  let floor: FloorServer | undefined;
  const sink = await startSmtpSink();
  const cleanup = async () => {
    await browser?.close().catch(() => undefined);
    await floor?.close();
    await product?.stop();
    await feeds.close();
    await sink.close();
    fs.rmSync(work, { recursive: true, force: true });
  };
  const offInterrupt = onInterrupt(cleanup);
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const loadAtStart = os.loadavg().slice(0, 2);
    const results: { mode: RenderMode; spec: PageSpec; loads: PageLoad[] }[] = [];
    const signedIn: { mode: RenderMode; spec: (typeof SIGNED_IN_PAGES)[number]; loads: PageLoad[] }[] = [];
    const paints: PaintRun[] = [];
    for (const mode of MODES) {
      // A product per mode, each on its own database with the same feeds.
      product = await startBuiltProduct({
        dataDir: path.join(work, `data-${MODES.indexOf(mode)}`),
        feeds,
        env: { FEED_TIMEOUT_MS: '60000', LOG_LEVEL: 'error', CACHE_MISS_BUDGET: '0', SMTP_URL: sink.url, ADMIN_EMAILS: BENCH_ADMIN, ...mode.env },
      });
      const cookie = await signIn(product.baseUrl, sink, BENCH_ADMIN);
      const base = product.baseUrl;
      // Guest and signed-in loads take turns, so a slower stretch of the machine weighs on both alike.
      // The floors (the same HTML without its scripts, a plain table), for the mode the targets are judged on.
      if (mode.judged) floor = await startFloorServer(base);
      const floorRuns = (page: PaintRun['page'], reader: PaintRun['reader'], path: string, selector: string, session?: typeof cookie) =>
        floor
          ? [
              {
                measure: () => measurePageLoad(browser!, floor!.stripped(path, session), selector, { static: true }),
                loads: [] as PageLoad[],
                paint: { page, reader, kind: 'no-script' as const },
              },
            ]
          : [];
      const runs = [
        ...PAGES.map((spec) => ({
          measure: () => measurePageLoad(browser!, base + spec.path, spec.selector),
          loads: [] as PageLoad[],
          spec,
          guest: true,
          paint: { page: spec.path, reader: 'guest' as const, kind: 'product' as const },
        })),
        ...PAGES.flatMap((spec) => floorRuns(spec.path, 'guest', spec.path, spec.selector)),
        ...SIGNED_IN_PAGES.map((spec) => ({
          measure: () => measurePageLoad(browser!, base + spec.path, spec.selector, { sessionCookie: cookie }),
          loads: [] as PageLoad[],
          spec,
          guest: false,
          paint: { page: spec.path, reader: 'signed in' as const, kind: 'product' as const },
        })),
        ...PAGES.flatMap((spec) => floorRuns(spec.path, 'signed in', spec.path, spec.selector, cookie)),
        ...(floor
          ? [
              {
                measure: () => measurePageLoad(browser!, floor!.table, PAGES[0].selector, { static: true }),
                loads: [] as PageLoad[],
                paint: { page: 'a plain 20-row table', reader: 'guest' as const, kind: 'table' as const },
              },
            ]
          : []),
      ];
      for (const r of runs) await r.measure();
      for (let i = 0; i < LOADS; i++) for (const r of runs) r.loads.push(await r.measure());
      for (const r of runs) {
        if (mode.judged) paints.push({ ...r.paint, loads: r.loads });
        if (!('spec' in r)) continue;
        if (r.guest) results.push({ mode, spec: r.spec as PageSpec, loads: r.loads });
        else signedIn.push({ mode, spec: r.spec, loads: r.loads });
      }
      await floor?.close();
      floor = undefined;
      await product.stop();
      product = undefined;
    }
    const loadAtEnd = os.loadavg().slice(0, 2);
    const version = browser.version();
    const judged = results.filter((r) => r.mode.judged);
    const breakdown = bundleBreakdown(judged.map(({ spec, loads }) => ({ page: spec.path, paths: medianLoad(loads).requests.map((r) => r.path) })));
    return [
      `api/bench/pageload.bench.ts. The built product (\`node api/dist/main.js\`, production mode, as the e2e suites start it) with ${dataSet} replayed locally through the real sync; Chromium ${version} (Debian, headless, the e2e flags) on loopback, viewport 1280×800.`,
      `Per page and mode: one uncounted warm-up load, then ${LOADS} cold loads, each in a fresh browser context (empty HTTP cache, no cookies: a first visit, so a guest); the median is reported, with every load's time in brackets. Time: from navigation start to the animation frame in which the key element first has a layout box. Live: until that element is also usable — the app has hydrated the server's markup (\`#root\` no longer \`inert\`), or rendered it itself. Bytes: Resource Timing of every request until the network was idle for 500 ms (wire = transferSize, headers included; decoded = after Content-Encoding). Each mode is its own product process and database on the same feeds; the targets are judged on the product as it ships (server-rendered).`,
      `Machine load average (1 min / 5 min): ${loadAtStart.map((n) => n.toFixed(1)).join(' / ')} at the start, ${loadAtEnd.map((n) => n.toFixed(1)).join(' / ')} at the end, on ${os.cpus().length} cores (other processes sharing the CPUs make the times pessimistic; the bytes do not depend on it).`,
      '',
      '| mode | page | key element | loads server-rendered | time to key element, median (each load) | target | result | live, median | JS on the wire / decoded, median | target | result | all bytes on the wire (requests) | main-thread CPU until live (of it script) |',
      '|---|---|---|---:|---:|---:|---|---:|---:|---:|---|---:|---:|',
      ...results.map(({ mode, spec, loads }) => pageRows(mode, spec, loads)),
      '',
      `**Signed in** (an admin signed in through the mailed code; the same cold loads with the session cookie, taking turns with the guest's). Target: each page's key element within ${SIGNED_IN_RATIO}× of the guest's /dashboard first row in the same mode and run.`,
      '',
      '| mode | page | key element | loads server-rendered | time to key element, median (each load) | ÷ guest /dashboard first row | result | live, median | main-thread CPU until live |',
      '|---|---|---|---:|---:|---:|---|---:|---:|',
      ...signedIn.map(({ mode, spec, loads }) => {
        const guest = median((results.find((r) => r.mode === mode && r.spec.path === '/dashboard')?.loads ?? []).map((l) => l.keyVisibleMs));
        const ms = median(loads.map((l) => l.keyVisibleMs));
        const ratio = ms / guest;
        const served = loads.filter((l) => l.serverRendered).length;
        const each = loads.map((l) => Math.round(l.keyVisibleMs)).join(', ');
        const result = mode.judged ? pass(ratio <= SIGNED_IN_RATIO) : '—';
        return `| ${mode.name} | \`${spec.path}\` | ${spec.keyElement} | ${served}/${loads.length} | **${Math.round(ms)} ms** (${each}) | ${ratio.toFixed(2)}× (guest ${Math.round(guest)} ms) | ${result} | ${Math.round(median(loads.map((l) => l.interactiveMs)))} ms | ${Math.round(median(loads.map((l) => l.mainThreadMs)))} ms |`;
      }),
      '',
      paintSection(paints),
      '',
      breakdown,
      '',
      '<details><summary>Waterfalls</summary>',
      '',
      ...results.map(({ mode, spec, loads }) => waterfall(mode, spec, medianLoad(loads))),
      '',
      '</details>',
    ].join('\n');
  } finally {
    await cleanup();
    offInterrupt();
  }
}

const bench: Bench = { title: 'Page load: /dashboard and / in Chromium, cold', run };
export default bench;
