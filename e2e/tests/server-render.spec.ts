import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';

/**
 * The first screen rendered on the server (api/src/http/server-render.ts, shell/src/server/render-page.tsx): /dashboard
 * and / arrive with their content in the HTML — a guest's page, or a signed-in user's own — and the shell hydrates
 * that markup in place — the same DOM nodes, no mismatch — in a browser whose time zone is not the server's, with a
 * stored dark theme, and with the page usable afterwards.
 */

const ROWS = 'table[aria-label="Items"] tbody tr[data-item-id]';
const MISMATCH = 'did not match';
/** /notifications: the weekly digest card's status, shown from its answer. */
const DIGEST_STATUS = 'section[aria-labelledby="digest-card-title"] .MuiChip-root';
/** /admin: the first tab's first sync run. */
const SYNC_RUNS = 'table[aria-label="Sync history"] tbody tr';

/** Marks the server's nodes before any of the page's scripts run, so the test can tell kept nodes from new ones. */
const MARK_SERVER_NODES = `document.addEventListener('readystatechange', () => {
  if (document.readyState !== 'interactive') return;
  const root = document.getElementById('root');
  window.__serverRendered = root ? root.hasAttribute('data-server-rendered') : false;
  const row = document.querySelector('${ROWS}');
  if (row) row.__fromServer = true;
  const h1 = document.querySelector('main h1');
  if (h1) h1.__fromServer = true;
  const digest = document.querySelector('${DIGEST_STATUS}');
  if (digest) digest.__fromServer = true;
  const run = document.querySelector('${SYNC_RUNS}');
  if (run) run.__fromServer = true;
});`;

async function guestPage(browser: Browser, baseURL: string, options: { timezoneId?: string; javaScriptEnabled?: boolean; dark?: boolean } = {}) {
  const context = await browser.newContext({ baseURL, timezoneId: options.timezoneId, javaScriptEnabled: options.javaScriptEnabled });
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  page.on('pageerror', (error) => warnings.push(error.message));
  if (options.dark) await page.addInitScript(() => window.localStorage.setItem('radar-ui-theme', 'dark'));
  if (options.javaScriptEnabled !== false) await page.addInitScript({ content: MARK_SERVER_NODES });
  return { page, warnings, close: () => context.close() };
}

const hydrated = (page: Page) => expect(page.locator('#root')).not.toHaveAttribute('inert', { timeout: 15_000 });
const fromServer = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((node) => (node as unknown as { __fromServer?: boolean }).__fromServer === true);

test("a guest's dashboard is in the HTML: rows and the pager show with JavaScript off", async ({ browser, baseURL }) => {
  const { page, close } = await guestPage(browser, baseURL!, { javaScriptEnabled: false });
  try {
    await page.goto('/dashboard');
    await expect(page.locator(ROWS).first()).toBeVisible();
    expect(await page.locator(ROWS).count()).toBeGreaterThanOrEqual(10);
    await expect(page.getByText(/Page 1 of \d+ \(\d+ total items\)/)).toBeVisible();
    await expect(page.locator('#root')).toHaveAttribute('inert', '');
  } finally {
    await close();
  }
});

test('the dashboard hydrates in place in a browser far from UTC: same nodes, local dates, no mismatch, rows open', async ({ browser, baseURL }) => {
  // Far from UTC, the server's zone for a render, on the side where the newest rows (dated around now) fall on another
  // date: UTC+14 from 10:00 UTC on, UTC−11 before it.
  const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const { page, warnings, close } = await guestPage(browser, baseURL!, { timezoneId });
  try {
    await page.goto('/dashboard');
    await hydrated(page);
    expect(await page.evaluate(() => (window as unknown as { __serverRendered: boolean }).__serverRendered)).toBe(true);
    await expect(page.locator(ROWS)).toHaveCount(50);
    // React kept the server's row instead of rendering its own.
    expect(await fromServer(page, ROWS)).toBe(true);
    expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
    // The server wrote dates in UTC; after hydration every row shows its date in the reader's zone.
    const dates = await page.evaluate((rows) => {
      const data = JSON.parse(document.getElementById('radar-server-data')?.textContent ?? '{}') as Record<
        string,
        { items: { id: number; source: string; modifiedDate?: string; createdDate?: string; lastUpdatedDate?: string; publishedDate?: string }[] }
      >;
      const items = Object.values(data)[0]?.items ?? [];
      const column = [...document.querySelectorAll('table[aria-label="Items"] thead th')].findIndex((th) => th.textContent === 'Last Modified');
      return [...document.querySelectorAll(rows)].slice(0, items.length).map((row, i) => {
        const item = items[i];
        const when = item.source === 'messages' ? (item.lastUpdatedDate ?? item.publishedDate) : (item.modifiedDate ?? item.createdDate);
        const format = (timeZone?: string) =>
          when ? new Date(when).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone }) : 'Unknown';
        return { expected: format(), utc: format('UTC'), shown: row.querySelectorAll('td')[column]?.textContent };
      });
    }, ROWS);
    // The check means something only if some dates differ between the two zones.
    expect(dates.filter((d) => d.expected !== d.utc).length).toBeGreaterThan(0);
    for (const { expected, shown } of dates) expect(shown).toBe(expected);
    await page.locator(ROWS).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
  } finally {
    await close();
  }
});

test('the landing page hydrates in place, and a stored dark theme applies right after', async ({ browser, baseURL }) => {
  const { page, warnings, close } = await guestPage(browser, baseURL!, { dark: true });
  try {
    await page.goto('/');
    await hydrated(page);
    await expect(page.locator('main h1')).toHaveText('Every Microsoft 365 change, in one place');
    expect(await fromServer(page, 'main h1')).toBe(true);
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
  } finally {
    await close();
  }
});

test("a dark reader's first paint is dark: the server's page in the reader's theme before any bundle runs", async ({ browser, baseURL }) => {
  const cases = [
    { name: 'system dark', colorScheme: 'dark' as const, stored: null, dark: true },
    { name: 'stored dark on a light system', colorScheme: 'light' as const, stored: 'dark', dark: true },
    { name: 'stored light on a dark system', colorScheme: 'dark' as const, stored: 'light', dark: false },
  ];
  for (const c of cases) {
    const context = await browser.newContext({ baseURL, colorScheme: c.colorScheme });
    try {
      const page = await context.newPage();
      if (c.stored) await page.addInitScript((value) => window.localStorage.setItem('radar-ui-theme', value), c.stored);
      // No bundle ever runs: what shows is the server's HTML, its styles and the page's own head script.
      await page.route(/\.js(\?|$)/, (route) => route.abort());
      await page.goto('/dashboard');
      await expect(page.locator(ROWS).first()).toBeVisible();
      await expect(page.locator('#root')).toHaveAttribute('inert', '');
      const painted = await page.evaluate(() => ({
        htmlClass: document.documentElement.className,
        background: getComputedStyle(document.body).backgroundColor,
        title: getComputedStyle(document.querySelector('tbody tr a, tbody tr button') ?? document.body).color,
      }));
      expect([c.name, painted.htmlClass.includes(c.dark ? 'dark' : 'light')]).toEqual([c.name, true]);
      // The theme's page backgrounds: #0b1120 dark, #f8fafc light; the title text light on dark, dark on light.
      expect([c.name, painted.background]).toEqual([c.name, c.dark ? 'rgb(11, 17, 32)' : 'rgb(248, 250, 252)']);
      const channels = painted.title.match(/\d+/g)!.slice(0, 3).map(Number);
      const lightness = channels.reduce((a, b) => a + b, 0) / 3;
      expect([c.name, c.dark ? lightness > 180 : lightness < 80]).toEqual([c.name, true]);
    } finally {
      await context.close();
    }
  }
});

test("a signed-in user's dashboard is rendered for them and hydrates in place: their menu, their list", async ({ moderatorPage }) => {
  const page = moderatorPage;
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  page.on('pageerror', (error) => warnings.push(error.message));
  await page.addInitScript({ content: MARK_SERVER_NODES });
  // The HTML itself carries their session and the list the api answers them, and is theirs alone.
  const sent = await page.request.get('/dashboard');
  expect(sent.headers()['cache-control']).toBe('private, no-cache');
  const html = await sent.text();
  expect(html).toContain('radar-server-data');
  expect(html).toContain('Mona');
  await page.goto('/dashboard');
  await hydrated(page);
  expect(await page.evaluate(() => (window as unknown as { __serverRendered: boolean }).__serverRendered)).toBe(true);
  await expect(page.locator(ROWS)).toHaveCount(50);
  expect(await fromServer(page, ROWS)).toBe(true);
  // What only a signed-in user has, live after hydration.
  await expect(page.getByRole('button', { name: 'Save search' })).toBeVisible();
  expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
  await page.locator(ROWS).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  // The landing page too starts from their session.
  await page.goto('/');
  await hydrated(page);
  expect(await fromServer(page, 'main h1')).toBe(true);
  expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
});

test("a signed-in user's notification settings arrive with their answers and hydrate in place", async ({ userPage }) => {
  const page = userPage;
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  page.on('pageerror', (error) => warnings.push(error.message));
  await page.addInitScript({ content: MARK_SERVER_NODES });
  await page.goto('/notifications');
  await hydrated(page);
  expect(await page.evaluate(() => (window as unknown as { __serverRendered: boolean }).__serverRendered)).toBe(true);
  // The card's status came with the page (not a loading placeholder replaced later), and React kept it.
  await expect(page.locator(DIGEST_STATUS)).toHaveText(/Subscribed|Not subscribed/);
  expect(await fromServer(page, DIGEST_STATUS)).toBe(true);
  expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
  // Live: the card's button works after hydration.
  const subscribe = page.getByRole('button', { name: /^(Subscribe|Unsubscribe)$/ });
  await expect(subscribe).toBeEnabled();
});

test("an admin's /admin arrives with its first tab's runs and hydrates in place far from UTC", async ({ browser, adminState, baseURL }) => {
  const timezoneId = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  const context = await browser.newContext({ baseURL, storageState: adminState, timezoneId });
  try {
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    page.on('pageerror', (error) => warnings.push(error.message));
    await page.addInitScript({ content: MARK_SERVER_NODES });
    await page.goto('/admin');
    await hydrated(page);
    expect(await page.evaluate(() => (window as unknown as { __serverRendered: boolean }).__serverRendered)).toBe(true);
    await expect(page.locator(SYNC_RUNS).first()).toBeVisible();
    expect(await fromServer(page, SYNC_RUNS)).toBe(true);
    expect(warnings.filter((w) => w.includes(MISMATCH))).toEqual([]);
    // Dates written in UTC by the server show in the reader's zone after hydration.
    const shown = await page.locator(`${SYNC_RUNS} td`).first().textContent();
    const expected = await page.evaluate(async () => {
      const answer = (await (await fetch('/api/admin/sync-history')).json()) as { syncHistory: { syncDate: string }[] };
      const d = new Date(answer.syncHistory[0]?.syncDate ?? 0);
      const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      const h = d.getHours() % 12 || 12;
      return `${months[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()} ${h}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
    });
    expect(shown).toBe(expected);
    // Live: another tab opens.
    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  } finally {
    await context.close();
  }
});
