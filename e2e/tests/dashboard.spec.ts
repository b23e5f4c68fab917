import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';

// The e2e product syncs the shipped demo data set from a local replay of the feeds (support/global-setup.ts).

/** Data rows of an RFC 4180 CSV (quoted fields may hold commas and line breaks), without the header. */
/** The page URL's query as a plain object: the view's keys, in whatever order the app wrote them. */
function queryOf(page: Page): Record<string, string> {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

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
    // Demo data: roadmap 990003 is linked to MC099002 (api/src/demo/demo-messages.ts).
    const roadmapTitle = 'Microsoft Teams: Meeting recap in the calendar';
    const messageTitle = '(Updated) Microsoft Teams: Meeting recap in the calendar';
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.searchFor('990003');
    await expect(dashboard.row('990003')).toBeVisible();

    const roadmapDialog = await dashboard.openItem(roadmapTitle);
    await expect(roadmapDialog.getByText(/Roadmap ID/)).toBeVisible();
    await expect.poll(() => queryOf(page)).toEqual({ search: '990003', roadmap: '990003' });

    await roadmapDialog.getByRole('button', { name: `View ${messageTitle}` }).click();
    const messageDialog = dashboard.dialog(messageTitle);
    await expect(messageDialog.getByText(/Message Center ID/)).toBeVisible();
    await expect.poll(() => queryOf(page)).toEqual({ search: '990003', message: 'MC099002' });

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

  test('the view is in the URL: Back and Forward restore filters and search, a reload keeps them', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.showFilters();
    await dashboard.tick('Roadmap Status', /Rolling out/i);
    await expect(page).toHaveURL(/roadmapStatuses=Rolling\+out/);
    await dashboard.searchFor('Teams');
    await expect(page).toHaveURL(/search=Teams/);
    await page.reload();
    await expect(dashboard.search).toHaveValue('Teams');
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await dashboard.showFilters();
    await dashboard.openSection('Roadmap Status');
    await expect(dashboard.filters.getByRole('checkbox', { name: /Rolling out/i })).not.toBeChecked();
    await expect(dashboard.search).toHaveValue('');
    await page.goForward();
    await expect(dashboard.filters.getByRole('checkbox', { name: /Rolling out/i })).toBeChecked();
    await expect(dashboard.search).toHaveValue('Teams');
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

/** Signed-in flows: one session per worker and role (support/fixtures.ts), signed in through the real passwordless flow. */
test.describe('dashboard, signed in', () => {
  test('a moderator curates an item: the dialog shows it at once, and the item appears in the landing carousel', async ({ moderatorPage: page }) => {
    const title = 'Microsoft Teams: Town hall Q&A moderation queue';
    const dashboard = new DashboardPage(page);
    const dialog = await dashboard.gotoItem('?roadmap=990004', title);
    await dialog.getByRole('button', { name: 'Moderate' }).click();
    const moderation = page.getByRole('dialog', { name: `Moderate: ${title}` });
    await moderation.getByRole('switch', { name: 'Featured item' }).check();
    await moderation.getByLabel('Link title').fill('Town hall moderation guide');
    await moderation.getByLabel('Link URL').fill('https://learn.example.com/town-hall-qa');
    await moderation.getByRole('button', { name: 'Add Link' }).click();
    await moderation.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Moderation settings updated successfully')).toBeVisible();
    await expect(moderation).toBeHidden();
    // The saved item comes back with the PUT's answer: no reload needed.
    await expect(dialog.getByText('Curated by moderator')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Open Town hall moderation guide' })).toBeVisible();
    await page.goto('/');
    await expect(page.getByText(title).first()).toBeVisible();
  });

  test('a user subscribes to an item and sees it on /notifications', async ({ userPage: page }) => {
    const title = 'Microsoft Teams: Pin messages in channels';
    const dashboard = new DashboardPage(page);
    const dialog = await dashboard.gotoItem('?roadmap=990002', title);
    await dialog.getByRole('switch', { name: 'Subscribe' }).click();
    await expect(page.getByText('Subscription created')).toBeVisible();
    await page.goto('/notifications');
    await expect(page.getByText(title)).toBeVisible();
  });
});
