import { readFile } from 'node:fs/promises';
import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { E2E_ADMIN_EMAIL } from '../pages/AdminPage.js';
import { grantRole, signInThroughDialog } from '../support/sign-in.js';

// The e2e product syncs the shipped demo data set from a local replay of the feeds (support/global-setup.ts).

/** Data rows of an RFC 4180 CSV (quoted fields may hold commas and line breaks), without the header. */
function csvDataRows(text: string): number {
  let rows = 0;
  let inQuotes = false;
  let rowHasContent = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') inQuotes = !inQuotes;
    if (char === '\n' && !inQuotes) {
      if (rowHasContent) rows += 1;
      rowHasContent = false;
    } else if (char !== '\r') rowHasContent = true;
  }
  if (rowHasContent) rows += 1;
  return rows - 1;
}

test.describe('dashboard', () => {
  test('search, open a roadmap item, open its related message, go back', async ({ page }) => {
    // Demo data: roadmap 990003 is linked to MC099002 (api/src/demo/demo-catalog.ts).
    const roadmapTitle = 'Microsoft Teams: Meeting recap in the calendar';
    const messageTitle = '(Updated) Microsoft Teams: Meeting recap in the calendar';
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.searchFor('990003');
    await expect(dashboard.row('990003')).toBeVisible();

    const roadmapDialog = await dashboard.openItem(roadmapTitle);
    await expect(roadmapDialog.getByText(/Roadmap ID/)).toBeVisible();
    await expect(page).toHaveURL(/\?roadmap=990003$/);

    await roadmapDialog.getByRole('button', { name: `View ${messageTitle}` }).click();
    const messageDialog = dashboard.dialog(messageTitle);
    await expect(messageDialog.getByText(/Message Center ID/)).toBeVisible();
    await expect(page).toHaveURL(/\?message=MC099002$/);

    await page.goBack();
    await expect(dashboard.dialog(roadmapTitle)).toBeVisible();
    await dashboard.dialog(roadmapTitle).getByRole('button', { name: 'Close' }).click();
    await expect(page).not.toHaveURL(/roadmap=/);
  });

  test('filter by roadmap status and message tag follows the sources rule', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.showFilters();
    await expect(dashboard.sourceCheckbox('Roadmap (Future Features)')).toBeChecked();
    await expect(dashboard.sourceCheckbox('Message Center (Current Updates)')).toBeChecked();

    await dashboard.tick('Roadmap Status', /Rolling out/i);
    await expect(dashboard.sourceCheckbox('Message Center (Current Updates)')).not.toBeChecked();
    await expect(dashboard.table.getByText('Message Center', { exact: true })).toHaveCount(0);
    await expect(dashboard.filters.getByRole('button', { name: 'Clear All' })).toBeVisible();

    await dashboard.openSection('Message Center Tags');
    await dashboard.filters.getByRole('group', { name: 'Message Center Tags' }).getByRole('checkbox').first().check();
    await expect(dashboard.sourceCheckbox('Roadmap (Future Features)')).toBeChecked();
    await expect(dashboard.sourceCheckbox('Message Center (Current Updates)')).toBeChecked();

    await dashboard.filters.getByRole('button', { name: 'Clear All' }).click();
    await expect(dashboard.filters.getByRole('button', { name: 'Clear All' })).toHaveCount(0);
  });

  test('export downloads a CSV whose data rows match the list total', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.showFilters();
    await dashboard.tick('Roadmap Status', /Launched/i);
    const total = await dashboard.listTotal();
    const download = await dashboard.exportCsv();
    expect(download.suggestedFilename()).toMatch(/^microsoft-365-dashboard-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csvDataRows(csv)).toBe(total);
  });
});

/** Signed-in flows: real passwordless sign-in (code from the test mailbox); the moderator is granted by the e2e admin. */
test.describe('dashboard, signed in', () => {
  test('a moderator features an item and it appears in the landing carousel', async ({ browser, mailbox }) => {
    const baseURL = process.env.RADAR_BASE_URL ?? '';
    const adminState = await signInThroughDialog(browser, baseURL, mailbox, { firstName: 'Erin', lastName: 'Admin', email: E2E_ADMIN_EMAIL });
    const email = uniqueEmail('mona');
    await signInThroughDialog(browser, baseURL, mailbox, { firstName: 'Mona', lastName: 'Moderator', email });
    await grantRole(browser, baseURL, adminState, email, 'Moderator');
    // Sign in again so the page starts with the new role.
    const state = await signInThroughDialog(browser, baseURL, mailbox, { firstName: 'Mona', lastName: 'Moderator', email });
    const context = await browser.newContext({ baseURL, storageState: state });
    const page = await context.newPage();
    const title = 'Microsoft Teams: Town hall Q&A moderation queue';
    const dashboard = new DashboardPage(page);
    await dashboard.goto('?roadmap=990004');
    const dialog = dashboard.dialog(title);
    await dialog.getByRole('button', { name: 'Moderate' }).click();
    const moderation = page.getByRole('dialog', { name: `Moderate: ${title}` });
    await moderation.getByRole('switch', { name: 'Featured item' }).check();
    await moderation.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Moderation settings updated successfully')).toBeVisible();
    await page.goto('/');
    await expect(page.getByText(title).first()).toBeVisible();
    await context.close();
  });

  test('a user subscribes to an item and sees it on /notifications', async ({ browser, mailbox }) => {
    const baseURL = process.env.RADAR_BASE_URL ?? '';
    const state = await signInThroughDialog(browser, baseURL, mailbox, { firstName: 'Sam', lastName: 'Subscriber', email: uniqueEmail('sam') });
    const context = await browser.newContext({ baseURL, storageState: state });
    const page = await context.newPage();
    const title = 'Microsoft Teams: Pin messages in channels';
    const dashboard = new DashboardPage(page);
    await dashboard.goto('?roadmap=990002');
    await dashboard.dialog(title).getByRole('switch', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription created')).toBeVisible();
    await page.goto('/notifications');
    await expect(page.getByText(title)).toBeVisible();
    await context.close();
  });
});
