/**
 * One cold page load in Chromium (a fresh browser context: empty HTTP cache, no cookies but the session's when a
 * signed-in load is asked for), measured from inside the
 * page: when the page's key element became visible (performance.now(), whose origin is the navigation start) and
 * what every request cost on the wire (Resource Timing: transferSize includes headers; decodedBodySize is after
 * Content-Encoding).
 */
import type { Browser } from 'playwright-core';

export interface PageLoad {
  /** ms from navigation start to the animation frame in which the key element was first laid out. */
  keyVisibleMs: number;
  /**
   * ms until the key element was visible and live: the app had rendered it, or had hydrated the server's markup
   * (#root no longer `inert`, api/src/http/static-bundles.ts). The same as keyVisibleMs for a page rendered in the browser.
   */
  interactiveMs: number;
  /** True when the page arrived rendered on the server (#root marked data-server-rendered in the HTML). */
  serverRendered: boolean;
  domContentLoadedMs: number;
  /**
   * Main-thread time Chromium spent on tasks (script, style, layout, paint) until the key element was visible: the
   * page's own CPU cost, which machine load inflates far less than the wall-clock time.
   */
  mainThreadMs: number;
  scriptMs: number;
  /** The browser's own paint timings (PerformanceObserver), ms from navigation start; null when none was reported. */
  fcpMs: number | null;
  /** The last largest-contentful-paint entry before the load was measured. */
  lcpMs: number | null;
  /** Cumulative layout shift (every shift without recent input), until the network was idle. */
  cls: number;
  js: ByteCount;
  all: ByteCount;
  /** Every request, in start order (the waterfall). */
  requests: RequestTiming[];
}

export interface ByteCount {
  requests: number;
  wire: number;
  decoded: number;
}

export interface RequestTiming {
  path: string;
  startMs: number;
  endMs: number;
  wire: number;
  decoded: number;
}

const MARK = '__radarKeyVisibleAt';
const LIVE_MARK = '__radarKeyLiveAt';
const SSR_MARK = '__radarServerRendered';
const PAINT_MARK = '__radarPaint';

/**
 * Runs at document creation: records the browser's own paint timings (first-contentful-paint, the latest
 * largest-contentful-paint) and the layout shifts (CLS), as a reader's browser reports them.
 */
const PAINT_OBSERVER = `(() => {
  const paint = (window.${PAINT_MARK} = { fcp: null, lcp: null, cls: 0 });
  const observe = (type, each) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(each)).observe({ type, buffered: true }); } catch (e) {}
  };
  observe('paint', (e) => { if (e.name === 'first-contentful-paint') paint.fcp = e.startTime; });
  observe('largest-contentful-paint', (e) => { paint.lcp = e.startTime; });
  observe('layout-shift', (e) => { if (!e.hadRecentInput) paint.cls += e.value; });
})();`;

/**
 * Runs at document creation: watches the DOM for the selector and records the time of the animation frame in which
 * the element first has a layout box (rendered, not just inserted), and of the one in which it is also live (#root
 * not inert: a server-rendered page is inert until the app has hydrated it).
 */
function keyElementWatcher(selector: string): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)};
    let pending = false;
    const live = () => { const root = document.getElementById('root'); return !!root && !root.hasAttribute('inert'); };
    const check = () => {
      if (window.${SSR_MARK} === undefined && document.getElementById('root')) {
        window.${SSR_MARK} = document.getElementById('root').hasAttribute('data-server-rendered');
      }
      if ((window.${MARK} !== undefined && window.${LIVE_MARK} !== undefined) || pending) return;
      const el = document.querySelector(selector);
      if (!el) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        const box = el.isConnected ? el.getBoundingClientRect() : { width: 0, height: 0 };
        if (box.width > 0 && box.height > 0) {
          const now = performance.now();
          if (window.${MARK} === undefined) window.${MARK} = now;
          if (live() && window.${LIVE_MARK} === undefined) window.${LIVE_MARK} = now;
        }
        if (window.${MARK} !== undefined && window.${LIVE_MARK} !== undefined) observer.disconnect();
        else check();
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true, attributes: true });
  })();`;
}

function sum(entries: RequestTiming[]): ByteCount {
  return {
    requests: entries.length,
    wire: entries.reduce((n, e) => n + e.wire, 0),
    decoded: entries.reduce((n, e) => n + e.decoded, 0),
  };
}

/** Loads `url` in a new context; resolves once the key element is visible and the network has been idle 500 ms. */
export async function measurePageLoad(
  browser: Browser,
  url: string,
  selector: string,
  options: {
    timeoutMs?: number;
    sessionCookie?: { name: string; value: string };
    /** A page without the app (a floor): measured until its key element is visible, never waiting for it to go live. */
    static?: boolean;
  } = {},
): Promise<PageLoad> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // A signed-in reader: the same cold cache, with their session cookie.
  if (options.sessionCookie) await context.addCookies([{ ...options.sessionCookie, url: new URL(url).origin }]);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.addInitScript({ content: PAINT_OBSERVER });
    await page.addInitScript({ content: keyElementWatcher(selector) });
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    // Functions, not strings: the product's CSP forbids eval, which Playwright uses for string predicates.
    const waitFor = options.static ? MARK : LIVE_MARK;
    await page.waitForFunction((mark) => (window as unknown as Record<string, unknown>)[mark] !== undefined, waitFor, { timeout: timeoutMs });
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    await page.waitForLoadState('networkidle', { timeout: timeoutMs });
    const measured = await page.evaluate(
      (mark) => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const origin = location.origin;
        const entries = [nav, ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[])].map((e) => ({
          path: e.name.startsWith(origin) ? e.name.slice(origin.length) : e.name,
          startMs: e.startTime,
          endMs: e.responseEnd,
          wire: e.transferSize,
          decoded: e.decodedBodySize,
        }));
        const marks = window as unknown as Record<string, number | boolean>;
        const paint = (window as unknown as Record<string, { fcp: number | null; lcp: number | null; cls: number }>)[mark[3]];
        return {
          paint,
          keyVisibleMs: marks[mark[0]] as number,
          interactiveMs: (marks[mark[1]] ?? marks[mark[0]]) as number,
          serverRendered: marks[mark[2]] === true,
          domContentLoadedMs: nav.domContentLoadedEventEnd,
          entries,
        };
      },
      [MARK, LIVE_MARK, SSR_MARK, PAINT_MARK] as const,
    );
    const requests = measured.entries.sort((a, b) => a.startMs - b.startMs);
    const isJs = (r: RequestTiming) => /\.js(\?|$)/.test(r.path);
    return {
      keyVisibleMs: measured.keyVisibleMs,
      interactiveMs: measured.interactiveMs,
      serverRendered: measured.serverRendered,
      domContentLoadedMs: measured.domContentLoadedMs,
      mainThreadMs: metric('TaskDuration'),
      scriptMs: metric('ScriptDuration'),
      fcpMs: measured.paint.fcp,
      lcpMs: measured.paint.lcp,
      cls: measured.paint.cls,
      js: sum(requests.filter(isJs)),
      all: sum(requests),
      requests,
    };
  } finally {
    await context.close();
  }
}

/** The load whose key-element time is the median (odd counts: the middle one). */
export function medianLoad(loads: PageLoad[]): PageLoad {
  const sorted = [...loads].sort((a, b) => a.keyVisibleMs - b.keyVisibleMs);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
