import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { signIn } from '../support/sign-in.js';

// Radar everywhere: the Subscribe menu's feed URLs, the API reference page, and personal API tokens,
// against the built product with the demo data set.

test('copy the RSS link of a filtered view from the Subscribe menu and fetch it', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await dashboard.searchFor('990003');
  await expect(dashboard.row('990003')).toBeVisible();

  const url = await dashboard.copyFeedUrl('Copy RSS feed URL');
  expect(url).toBe(`${baseURL}/api/feeds/items.rss?search=990003`);
  const feed = await page.request.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
  const xml = await feed.text();
  expect(xml).toContain('<rss version="2.0"');
  expect(xml).toContain('<title><![CDATA[Microsoft Teams: Meeting recap in the calendar]]></title>');
  expect(xml).toMatch(/<link>https?:\/\/[^<]+\/roadmap\/990003<\/link>/);
  // A reader polling again gets a 304.
  const again = await page.request.get(url, { headers: { 'If-None-Match': feed.headers().etag! } });
  expect(again.status()).toBe(304);

  const calendarUrl = await dashboard.copyFeedUrl('Copy calendar URL');
  const calendar = await page.request.get(calendarUrl);
  expect(calendar.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(await calendar.text()).toMatch(/^BEGIN:VCALENDAR/);
});

test('the API reference renders from local files under a script policy without inline scripts', async ({ page, baseURL }) => {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  const requested: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /M365 Radar API/ })).toBeVisible();
  // Every group starts folded; each opens to its operations.
  await page.locator('.opblock-tag', { hasText: /^items/ }).click();
  const list = page.locator('.opblock-summary-path', { hasText: /^\/api\/unified\/items$/ });
  await expect(list).toBeVisible();
  await page.locator('.opblock-tag', { hasText: /^feeds/ }).click();
  await expect(page.locator('.opblock-summary-path', { hasText: /^\/api\/feeds\/items\.rss$/ })).toBeVisible();
  await page.locator('.opblock-tag', { hasText: /^triage/ }).click();
  await expect(page.locator('.opblock-summary-path', { hasText: /^\/api\/triage\/bulk$/ })).toBeVisible();
  expect(violations).toEqual([]);
  // Nothing from a CDN: production may have no internet.
  expect(requested.filter((url) => !url.startsWith(`${baseURL}/`) && !url.startsWith('data:'))).toEqual([]);
});

test('a personal API token from /profile reads the api, and stops working once revoked', async ({ browser, mailbox, baseURL }) => {
  const state = await signIn(browser, baseURL ?? '', mailbox, { firstName: 'Tara', lastName: 'Token', email: uniqueEmail('tara') });
  const context = await browser.newContext({ baseURL, storageState: state });
  const page = await context.newPage();
  await page.goto('/profile');
  const tokens = page.getByRole('region', { name: 'API tokens' });
  await expect(tokens.getByText('No API tokens yet')).toBeVisible();
  await tokens.getByLabel('Token name').fill('e2e agent');
  await tokens.getByRole('button', { name: 'Create token' }).click();
  const token = await tokens.getByLabel('New API token').inputValue();
  expect(token).toMatch(/^rdr_/);
  await expect(tokens.getByText(/e2e agent/).first()).toBeVisible();

  // A fresh client without cookies, only the token.
  const api = await (await import('@playwright/test')).request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const list = await api.get('/api/unified/items?search=990003');
  expect(list.status()).toBe(200);
  expect((await list.json()).items[0].itemId).toBe('990003');
  expect((await api.get('/api/admin/roles')).status()).toBe(403);

  await tokens.getByRole('button', { name: 'Done: hide the token' }).click();
  await tokens.getByRole('button', { name: 'Revoke token e2e agent' }).click();
  await page.getByRole('dialog', { name: 'Revoke “e2e agent”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token revoked')).toBeVisible();
  await expect(tokens.getByText('No API tokens yet')).toBeVisible();
  expect((await api.get('/api/unified/items')).status()).toBe(401);
  await api.dispose();
  await context.close();
});
