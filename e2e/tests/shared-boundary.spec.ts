import { expect, test } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ShellPage } from '../pages/ShellPage.js';

// What host and remotes share at run time (build-config/sharing.cjs): one theme, one MUI (its modal stack), one set of
// shared-ui stores; and how the bundles travel (precompressed, only the parts a screen uses).

/** A string zod's core carries whatever the minifier does (its global config's name): any schema brings it along. */
const ZOD_MARKER = '__zod_globalConfig';

// Demo data (api/src/demo/demo-roadmap.ts, demo-messages.ts).
const ROADMAP_ID = '990003';
const ROADMAP_TITLE = 'Microsoft Teams: Meeting recap in the calendar';

test('the dark theme chosen in the shell styles the dashboard remote too', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.rows().first()).toBeVisible();
  const surface = dashboard.table.locator('xpath=ancestor::div[contains(@class, "MuiPaper-root")][1]');
  const lightBackground = await surface.evaluate((element) => getComputedStyle(element).backgroundColor);

  await new ShellPage(page).chooseTheme('Dark');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // The shared theme's dark paper (#111827), set by the shell's provider, reaches the remote's components.
  await expect(surface).toHaveCSS('background-color', 'rgb(17, 24, 39)');
  expect(lightBackground).not.toBe('rgb(17, 24, 39)');
});

test("the shell's sign-in dialog opens over the dashboard's item dialog and keeps the focus", async ({ page }) => {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await dashboard.searchFor(ROADMAP_ID);
  const itemDialog = await dashboard.openItem(ROADMAP_TITLE);
  await itemDialog.getByRole('switch', { name: 'Subscribe (sign in)' }).click();

  const signIn = page.getByRole('dialog', { name: 'Sign In' });
  await expect(signIn).toBeVisible();
  // One modal stack for host and remote: the top dialog traps the focus, so typing reaches its field.
  const email = signIn.getByLabel('Email');
  await email.click();
  await page.keyboard.type('someone@example.com');
  await expect(email).toHaveValue('someone@example.com');
  await expect(email).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(signIn).toBeHidden();
  await expect(dashboard.dialog(ROADMAP_TITLE)).toBeVisible();
});

test('scripts arrive brotli-compressed, and the landing page loads no dialog, table or form code', async ({ page }) => {
  const scripts: { url: string; encoding: string | undefined; length: number }[] = [];
  page.on('response', (response) => {
    const headers = response.headers();
    if (response.request().resourceType() === 'script')
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], length: Number(headers['content-length'] ?? 0) });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  // Files under 1 KB are not worth compressing (build-config/federation.cjs).
  expect(scripts.filter((s) => s.encoding !== 'br' && s.length >= 1024).map((s) => s.url)).toEqual([]);
  // MUI's extra part (dialogs, menus, tables, text fields) and the sign-in dialog are fetched only when a screen needs
  // them: none of the landing page's scripts carries their code.
  const carried = await page.evaluate(
    async ({ urls, markers }) => {
      const texts = await Promise.all(urls.map(async (url) => (await fetch(url)).text()));
      return markers.filter((marker) => texts.some((text) => text.includes(marker)));
    },
    { urls: scripts.map((s) => s.url), markers: ['MuiDialog', 'MuiTableCell', 'MuiTextField', 'Enter Verification Code', ZOD_MARKER] },
  );
  expect(carried).toEqual([]);
  expect(scripts.some((s) => s.url.includes('/remotes/'))).toBe(false);
});

test('the dashboard paints its list without zod: no schema is parsed before the first row (routes, not endpoints)', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.url());
  });
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.rows().first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((url) => url.includes('/remotes/dashboard/'))).toBe(true);
  const withZod = await page.evaluate(
    async ({ urls, marker }) => {
      const texts = await Promise.all(urls.map(async (url) => ({ url, text: await (await fetch(url)).text() })));
      return texts.filter(({ text }) => text.includes(marker)).map(({ url }) => url);
    },
    { urls: scripts, marker: ZOD_MARKER },
  );
  expect(withZod).toEqual([]);
});

test("a cold load of the dashboard renders it at once: the remote loads with the shell's code, no loading frame", async ({ page }) => {
  // Records whether the shell's loading state for the remote was ever in the page.
  await page.addInitScript(() => {
    const seen = { loading: false };
    (window as unknown as { __loadingSeen: typeof seen }).__loadingSeen = seen;
    new MutationObserver(() => {
      if (document.querySelector('[aria-label="Loading Dashboard"]')) seen.loading = true;
    }).observe(document, { childList: true, subtree: true });
  });
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await expect(dashboard.rows().first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __loadingSeen: { loading: boolean } }).__loadingSeen.loading)).toBe(false);
});
