/**
 * The page-load bench's paint section: the browser's own timings (first and largest contentful paint, layout
 * shift) of each page as the product sends it, beside its floors measured in the same run, taking turns: the very
 * same HTML without its scripts, and a plain 20-row table (api/bench/floor-server.ts).
 */
import type { PageLoad } from './page-metrics.js';
import { median } from './stats.js';

export interface PaintRun {
  page: string;
  reader: 'guest' | 'signed in';
  /** The product as it ships, the same HTML with its scripts removed, or the plain table. */
  kind: 'product' | 'no-script' | 'table';
  loads: PageLoad[];
}

/** Largest contentful paint within this many times the no-script floor's. */
export const LCP_FLOOR_RATIO = 1.2;
/** ...and within this many milliseconds on this machine. */
export const LCP_TARGET_MS = 450;
/** The page's HTML, decoded. */
export const HTML_TARGET_KB = 120;

const ms = (values: (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? median(known) : null;
};
const show = (v: number | null) => (v === null ? 'n/a' : `${Math.round(v)} ms`);
const pass = (ok: boolean) => (ok ? 'pass' : '**FAIL**');

/** The document's own bytes (the navigation entry: the first request). */
const htmlKb = (loads: PageLoad[]) => median(loads.map((l) => l.requests[0]?.decoded ?? 0)) / 1024;

export function paintSection(runs: PaintRun[]): string {
  const table = runs.find((r) => r.kind === 'table');
  const lines = [
    `**Paint** (the browser's own timings: PerformanceObserver \`paint\` and \`largest-contentful-paint\`, \`layout-shift\` summed as CLS, until the network was idle; the server-rendered product). Beside each page its floor, measured in the same run taking turns: the very same HTML the product sent that reader with every \`<script>\` and script preload removed, served by a static server (other requests passed to the product). Targets: LCP ≤ ${LCP_FLOOR_RATIO}× the floor's and ≤ ${LCP_TARGET_MS} ms; CLS 0; HTML ≤ ${HTML_TARGET_KB} KB decoded (\`/dashboard\`).`,
    '',
    '| page | reader | FCP (floor) | LCP (floor) | LCP ÷ floor | result | live | CLS (max of the loads) | result | HTML decoded (floor) | result |',
    '|---|---|---:|---:|---:|---|---:|---:|---|---:|---|',
  ];
  for (const run of runs.filter((r) => r.kind === 'product')) {
    const floor = runs.find((r) => r.kind === 'no-script' && r.page === run.page && r.reader === run.reader);
    const fcp = ms(run.loads.map((l) => l.fcpMs));
    const lcp = ms(run.loads.map((l) => l.lcpMs));
    const floorFcp = floor ? ms(floor.loads.map((l) => l.fcpMs)) : null;
    const floorLcp = floor ? ms(floor.loads.map((l) => l.lcpMs)) : null;
    const ratio = lcp !== null && floorLcp ? lcp / floorLcp : null;
    const lcpOk = ratio !== null && lcp !== null && ratio <= LCP_FLOOR_RATIO && lcp <= LCP_TARGET_MS;
    const cls = Math.max(...run.loads.map((l) => l.cls));
    const html = htmlKb(run.loads);
    const htmlJudged = run.page === '/dashboard';
    lines.push(
      `| \`${run.page}\` | ${run.reader} | ${show(fcp)} (${show(floorFcp)}) | **${show(lcp)}** (${show(floorLcp)}) | ${ratio === null ? '—' : `${ratio.toFixed(2)}×`} | ${floor ? pass(lcpOk) : '—'} | ${show(median(run.loads.map((l) => l.interactiveMs)))} | ${cls.toFixed(3)} | ${pass(cls === 0)} | ${html.toFixed(1)} KB${floor ? ` (${htmlKb(floor.loads).toFixed(1)} KB)` : ''} | ${htmlJudged ? pass(html <= HTML_TARGET_KB) : '—'} |`,
    );
  }
  if (table) {
    lines.push(
      '',
      `The browser's floor, a plain 20-row HTML table (1 KB, no styles, no scripts) in the same run: FCP ${show(ms(table.loads.map((l) => l.fcpMs)))}, LCP ${show(ms(table.loads.map((l) => l.lcpMs)))}.`,
    );
  }
  return lines.join('\n');
}
