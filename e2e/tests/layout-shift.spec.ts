import type { Browser } from '@playwright/test';
import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { grantRole, signIn, type StorageState } from '../support/sign-in.js';

/**
 * The server-rendered /dashboard does not move once painted: hydration, the rest of the list (rows after the first
 * screen's, which the browser's own list request brings) and the page's later reads draw into the boxes the server's
 * markup already had. The browser's own `layout-shift` entries, buffered from the navigation on, are read after the
 * whole list has rendered and the network has gone quiet.
 */

const ROWS = 'table[aria-label="Items"] tbody tr[data-item-id]';

/** Every layout shift of the page so far: its value and each moved node with its boxes before and after. */
const RECORD_SHIFTS = `window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__shifts.push({
      value: entry.value,
      at: Math.round(entry.startTime),
      sources: (entry.sources || []).map((s) => ({
        node: s.node ? s.node.nodeName + (s.node.getAttribute ? ' ' + (s.node.getAttribute('data-item-id') || s.node.getAttribute('data-col') || s.node.className || '') : '') : '(gone)',
        before: [s.previousRect.x, s.previousRect.y, s.previousRect.width, s.previousRect.height].map(Math.round).join(','),
        after: [s.currentRect.x, s.currentRect.y, s.currentRect.width, s.currentRect.height].map(Math.round).join(','),
      })),
    });
  }
}).observe({ type: 'layout-shift', buffered: true });`;

async function shiftsOf(browser: Browser, baseURL: string, path: string, storageState?: StorageState) {
  const context = await browser.newContext({ baseURL, storageState, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: RECORD_SHIFTS });
    const response = await page.goto(path);
    const html = (await response?.text()) ?? '';
    await expect(page.locator('#root')).not.toHaveAttribute('inert', { timeout: 15_000 });
    // The whole first page of the list (50 rows) has rendered, and nothing more is on its way.
    await expect(page.locator(ROWS)).toHaveCount(50, { timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: unknown[] }).__shifts);
    return {
      shifts,
      html,
      banner: await page.getByText(/since your last visit/).count(),
      selectable: await page.getByRole('checkbox', { name: /^Select / }).count(),
    };
  } finally {
    await context.close();
  }
}

test("a guest's dashboard does not shift after its first paint", async ({ browser, baseURL }) => {
  for (let load = 0; load < 3; load++) {
    const { shifts } = await shiftsOf(browser, baseURL!, '/dashboard');
    expect(JSON.stringify(shifts, null, 1)).toBe('[]');
  }
});

/**
 * A moderator's dashboard: the triage columns, the selection column and the rows after the first screen's hold still
 * (the page-load bench reads 0 for its signed-in admin). A moderator of its own: a first visit has no "since your
 * last visit" banner; the next ones (the suite records every visit: LAST_VISIT_UPDATE_SECONDS=0) have it, and it is
 * in the server's markup, not added above the list once the page's own visit request has answered.
 */
test("a moderator's dashboard does not shift either: triage columns, the selection column and the later rows", async ({
  browser,
  baseURL,
  mailbox,
  adminState,
}) => {
  const moderator = { firstName: 'Mona', lastName: 'Still', email: uniqueEmail('e2e-still-moderator') };
  await signIn(browser, baseURL!, mailbox, moderator);
  await grantRole(browser, baseURL!, adminState, moderator.email, 'Moderator');
  // A role change ends the holder's sessions: the moderator signs in again (before, this test loaded a guest's page).
  const state = await signIn(browser, baseURL!, mailbox, moderator);
  for (let load = 0; load < 3; load++) {
    const { shifts, html, banner, selectable } = await shiftsOf(browser, baseURL!, '/dashboard', state);
    expect(JSON.stringify(shifts, null, 1)).toBe('[]');
    // A moderator's page: the selection column is there.
    expect(selectable).toBeGreaterThan(0);
    expect(banner).toBe(load === 0 ? 0 : 1);
    expect(html.includes('since your last visit')).toBe(load > 0);
  }
});
