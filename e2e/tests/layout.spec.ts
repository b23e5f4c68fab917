import type { Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.js';
import { expect, test } from '../support/fixtures.js';
import { AdminPage, type AdminTab } from '../pages/AdminPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { WeeklyDigestPage } from '../pages/WeeklyDigestPage.js';

// Layout at the widths people use: nothing makes a page wider than a phone's screen (360 and 390 px), every action
// is on screen, and the dashboard's table fits its box on a desktop with the filters open.

const ROADMAP_TITLE = 'Microsoft Teams: Meeting recap in the calendar';
const ADMIN_TABS: AdminTab[] = [
  'Sync History',
  'Change History',
  'Users',
  'Tenants',
  'Products',
  'Trackers',
  'Contact Forms',
  'Digest',
  'Analytics',
  'AI Summary',
  'Activity',
  'Remotes',
];

const FEATURED: Array<[string, string]> = [
  ['990004', 'Microsoft Teams: Town hall Q&A moderation queue'],
  ['990002', 'Microsoft Teams: Pin messages in channels'],
];

/** Features a roadmap item through its moderation dialog (already featured: saved as it is). */
async function feature(page: Page, itemId: string, title: string) {
  const dialog = await new DashboardPage(page).gotoItem(`?roadmap=${itemId}`, title);
  await dialog.getByRole('button', { name: 'Moderate' }).click();
  const moderation = page.getByRole('dialog', { name: `Moderate: ${title}` });
  await expectFitsScreen(page, 'moderation dialog');
  await moderation.getByRole('switch', { name: 'Featured item' }).check();
  await moderation.getByRole('button', { name: 'Save' }).click();
  await expect(moderation).toBeHidden();
}

const h1 = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
};

const PUBLIC_ROUTES: Array<[string, (page: Page) => Promise<void>]> = [
  ['/', async (page) => expect(page.getByTestId('roadmap-count')).toBeVisible()],
  [
    '/dashboard',
    async (page) => {
      await h1('Dashboard')(page);
      await expect(page.getByRole('list', { name: 'Items' }).getByRole('listitem').first()).toBeVisible();
    },
  ],
  ['/weekly-digest', async (page) => new WeeklyDigestPage(page).goto()],
  ['/contact', h1('About Us')],
  ['/privacy', h1('Privacy Policy')],
  ['/terms', h1('Terms & Conditions')],
  ['/profile', async (page) => expect(page.getByText('Please sign in to view your profile.')).toBeVisible()],
  ['/notifications', h1('Notification Settings')],
  ['/this/route/does-not-exist', h1('Page not found')],
];

interface Overflow {
  pageWidth: number;
  viewport: number;
  /** Buttons, links and fields whose box ends right of the screen, outside any scroll box of their own. */
  offscreen: string[];
}

/**
 * How far the page runs right of the screen, and which controls do. A control inside a box that scrolls sideways
 * (a tab strip with scroll arrows, a code block) counts only when that box itself runs off the screen.
 */
async function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const viewport = window.innerWidth;
    const scrollsSideways = (el: Element) => {
      const style = getComputedStyle(el);
      return ['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth;
    };
    const offscreen: string[] = [];
    for (const el of document.querySelectorAll('button, a[href], input, select, textarea, [role="button"], [role="tab"]')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      let scroller: Element | null = el.parentElement;
      while (scroller && scroller !== document.body && !scrollsSideways(scroller)) scroller = scroller.parentElement;
      const right = scroller && scroller !== document.body ? scroller.getBoundingClientRect().right : box.right;
      if (right > viewport + 1)
        offscreen.push(
          `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ends at ${Math.round(right)}`,
        );
    }
    return { pageWidth: document.documentElement.scrollWidth, viewport, offscreen };
  });
}

async function expectFitsScreen(page: Page, what: string) {
  const result = await measure(page);
  expect.soft(result.pageWidth, `${what}: page width at a ${result.viewport} px screen`).toBeLessThanOrEqual(result.viewport);
  expect.soft(result.offscreen, `${what}: controls off the screen`).toEqual([]);
}

for (const width of [360, 390]) {
  test.describe(`a ${width} px phone`, () => {
    test.use({ viewport: { width, height: 844 } });

    for (const [path, ready] of PUBLIC_ROUTES) {
      test(`route ${path} is no wider than the screen`, async ({ page }) => {
        await page.goto(path);
        await ready(page);
        await expectFitsScreen(page, path);
        // One <main> landmark on every page, the skip link's target.
        await expect(page.getByRole('main')).toHaveCount(1);
        await expect(page.locator('main#main')).toHaveCount(1);
      });
    }

    test('the header menus and an item dialog fit the screen; Sign In is in reach', async ({ page }) => {
      const dashboard = new DashboardPage(page);
      const dialog = await dashboard.gotoItem('?roadmap=990003', ROADMAP_TITLE);
      await expectFitsScreen(page, 'item dialog');
      await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeInViewport();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await page.getByRole('button', { name: 'More actions' }).click();
      await expect(page.getByRole('menuitem', { name: 'Save search' })).toBeInViewport();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Account menu' })).toBeInViewport();
      await page.getByRole('button', { name: 'Account menu' }).click();
      await expect(page.getByRole('menuitem', { name: 'Sign In' }).or(page.getByRole('dialog', { name: 'Sign In' }))).toBeVisible();
    });

    test('/admin: every tab fits the screen, with no serious accessibility issue', async ({ adminPage: page }) => {
      test.setTimeout(240_000);
      const admin = new AdminPage(page);
      await admin.goto();
      for (const tab of ADMIN_TABS) {
        await admin.openTab(tab);
        await expect(page.getByRole('tabpanel').getByText(/^Loading /)).toHaveCount(0);
        // A word diff's screen-reader markers must not widen the page (the feeds' v2 changed a description).
        if (tab === 'Change History')
          await expect(
            page
              .getByRole('tabpanel')
              .getByText(/\[inserted: /)
              .first(),
          ).toBeAttached();
        await expectFitsScreen(page, `/admin ${tab}`);
        await expect(page.getByRole('main')).toHaveCount(1);
        if (width === 390) await expectAccessible(page, `/admin ${tab} at 390 px`);
      }
    });

    test('/weekly-digest: one featured card per slide, arrows beside it, no serious accessibility issue', async ({ moderatorPage: page }) => {
      // Two items featured this week (from the phone: the moderation dialog fits it too), so the carousel has slides.
      for (const [id, title] of FEATURED) await feature(page, id, title);
      await new WeeklyDigestPage(page).goto();
      const slide = page.getByRole('group', { name: /^Slide 1 of \d+$/ });
      await expect(slide.locator(':scope > *')).toHaveCount(1);
      // The arrows sit beside the card, level with it, not halfway down a stack of three.
      const [card, next] = await Promise.all([slide.boundingBox(), page.getByRole('button', { name: 'Next featured items' }).boundingBox()]);
      expect(next!.y + next!.height / 2).toBeGreaterThan(card!.y);
      expect(next!.y + next!.height / 2).toBeLessThan(card!.y + card!.height);
      await expectFitsScreen(page, '/weekly-digest');
      if (width === 390) await expectAccessible(page, '/weekly-digest at 390 px');
    });
  });
}

test('the dashboard table fits its box at every desktop width, filters open and closed', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.rows().first()).toBeVisible();
  const table = page.getByRole('table', { name: 'Items' });
  const sweep = async (filters: string) => {
    // The container queries follow the box as it changes: no reload between widths.
    for (let width = 1024; width <= 1920; width += 32) {
      await page.setViewportSize({ width, height: 900 });
      const size = await table.evaluate((el) => ({ table: Math.round(el.getBoundingClientRect().width), box: (el.parentElement as HTMLElement).clientWidth }));
      expect.soft(size.table, `at ${width} px, filters ${filters}: the table in its ${size.box} px box`).toBeLessThanOrEqual(size.box);
      expect.soft((await measure(page)).pageWidth, `at ${width} px, filters ${filters}: the page`).toBeLessThanOrEqual(width);
      // Whatever folded is still there: each row shows its tags or status, under the title when the column folded.
      await expect(dashboard.rows().first().locator('[data-col="tags"]:visible, [data-fold="tags"]:visible')).toHaveCount(1);
    }
  };
  await sweep('closed');
  await page.setViewportSize({ width: 1366, height: 900 });
  await dashboard.showFilters();
  await sweep('open');
});

test('the tab shows the product icon, declared so no page asks for a missing /favicon.ico', async ({ page }) => {
  for (const path of ['/', '/dashboard']) {
    await page.goto(path);
    const href = await page.locator('head link[rel="icon"]').getAttribute('href');
    expect(href, `${path} declares its icon`).toMatch(/^\/favicon\.svg/);
    const icon = await page.request.get(href!);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toContain('<svg');
  }
});
