import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { DashboardPage } from '../pages/DashboardPage.js';

// Needs the demo data set imported into the e2e product (roadmap items linked to Message Center posts).

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

/**
 * Signed-in flows. They need the shell suite's sign-in helper (real passwordless flow, code read from the test
 * mailbox) and a way to give the test user the Moderator role; until both exist in e2e/ they are marked fixme.
 */
test.describe('dashboard, signed in', () => {
  test('a moderator features an item and it appears in the landing carousel', async ({ page }) => {
    test.fixme(true, 'needs the shared sign-in helper and a Moderator seeding hook in e2e/');
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
  });

  test('a user subscribes to an item and sees it on /notifications', async ({ page }) => {
    test.fixme(true, 'needs the shared sign-in helper in e2e/');
    const title = 'Microsoft Teams: Pin messages in channels';
    const dashboard = new DashboardPage(page);
    await dashboard.goto('?roadmap=990002');
    await dashboard.dialog(title).getByRole('switch', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription created')).toBeVisible();
    await page.goto('/notifications');
    await expect(page.getByText(title)).toBeVisible();
  });
});
