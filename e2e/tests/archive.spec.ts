import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ARCHIVE_IDS } from '../support/feeds.js';
import { syncSnapshot } from '../support/feed-control.js';
import { signIn } from '../support/sign-in.js';

// The product first synced feeds v1, then the global setup synced v2 as an admin (support/feeds.ts): 313800 went
// from Rolling out to Launched, 536571's GA date moved from March to April CY2026, MC1024404 expired.

const EXPIRED_TITLE = '(Updated) Microsoft Entra: Browser access will be enabled by default for all Android users';
const DATE = /[A-Z][a-z]{2} \d{1,2}, \d{4}/;

test.describe('archive, versions, date slips and since your last visit', () => {
  test('an expired message is found by its id and through the archive switch, with its banner', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    // The share link resolves although the post expired.
    await page.goto(`/message/${ARCHIVE_IDS.expiring}`);
    const dialog = dashboard.dialog(EXPIRED_TITLE);
    await expect(dialog.getByRole('alert')).toHaveText(new RegExp(`^Expired on ${DATE.source}$`));
    const history = dialog.getByRole('list', { name: 'Change history' });
    await expect(history.getByRole('listitem')).toHaveCount(2);
    await expect(history.getByText('Removed')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The admin's Change History links the post as /dashboard?message={id}: that opens it too, expired as it is.
    await dashboard.gotoItem(`?message=${ARCHIVE_IDS.expiring}`, EXPIRED_TITLE);
    await expect(dialog.getByRole('alert')).toHaveText(new RegExp(`^Expired on ${DATE.source}$`));
    await dialog.getByRole('button', { name: 'Close' }).click();

    // An exact-id search finds it with the archive off; a word search does not…
    await dashboard.searchFor(ARCHIVE_IDS.expiring);
    await expect(dashboard.row(ARCHIVE_IDS.expiring)).toContainText(/Expired [A-Z][a-z]{2} \d/);
    await dashboard.searchFor('Browser access will be enabled by default');
    await expect(dashboard.row(ARCHIVE_IDS.expiring)).toHaveCount(0);
    // …until "Include removed and expired" is on.
    await dashboard.showFilters();
    await expect(dashboard.includeRemovedSwitch()).not.toBeChecked();
    await dashboard.includeRemovedSwitch().check();
    await expect(page).toHaveURL(/includeRemoved=true/);
    await expect(dashboard.row(ARCHIVE_IDS.expiring)).toBeVisible();
    await dashboard.openItem(EXPIRED_TITLE);
    await expect(dialog.getByRole('alert')).toContainText('Expired on');
  });

  test('compares two versions of 313800: Rolling out → Launched', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await page.goto(`/roadmap/${ARCHIVE_IDS.statusChange}`);
    const dialog = page.getByRole('dialog', { name: /Apply partial settings for Android devices/ });
    const compare = await dashboard.compareVersions(dialog);
    await expect(compare.getByRole('combobox', { name: 'From version' })).toContainText('Version 1');
    await expect(compare.getByRole('combobox', { name: 'To version' })).toContainText('Version 2');
    const status = compare.getByRole('row', { name: /Status/ });
    await expect(status.getByRole('cell')).toHaveText(['Rolling out', 'Launched']);
  });

  test('the date-slip filter lists the item whose GA date moved, and its dialog tells by how much', async ({ page }) => {
    const dashboard = new DashboardPage(page);
    await dashboard.goto();
    await dashboard.showFilters();
    await dashboard.releaseMovedOption('Last 7 Days').check();
    await expect(page).toHaveURL(/releaseMoved=7days/);
    await expect(dashboard.row(ARCHIVE_IDS.dateSlip)).toBeVisible();
    await expect(dashboard.rows()).toHaveCount(1);
    await expect(dashboard.row(ARCHIVE_IDS.dateSlip)).toContainText('Date moved 1×');
    await dashboard.openItem('Microsoft Teams: User reported security signals in Teams admin center');
    const slips = page.getByRole('region', { name: 'Release Date Changes' });
    await expect(slips).toContainText('GA date moved 1 time, +1 month since first seen');
    await expect(slips.getByRole('listitem')).toHaveText(new RegExp(`${DATE.source}: GA date March CY2026 → April CY2026 \\(\\+1 month\\)`));
  });

  test('since your last visit: what a sync changed after a visit is counted and listed', async ({ browser, baseURL, mailbox }) => {
    const state = await signIn(browser, baseURL!, mailbox, { firstName: 'Vera', lastName: 'Visitor', email: uniqueEmail('vera') });
    const context = await browser.newContext({ baseURL, storageState: state });
    const page = await context.newPage();
    const dashboard = new DashboardPage(page);
    // The rows arrive in the server's HTML; the visit is recorded once the page's script runs, after the first
    // paint. The sync below must come after that record, or it would count as before the visit.
    const firstVisit = page.waitForResponse((response) => response.url().endsWith('/api/dashboard/visit'));
    await dashboard.goto();
    await expect(dashboard.rows().first()).toBeVisible();
    expect(await (await firstVisit).json()).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
    // A first visit has nothing to compare with.
    await expect(dashboard.sinceLastVisitBanner()).toHaveCount(0);

    const result = await syncSnapshot('roadmap', 'v3');
    expect(result.sync).toMatchObject({ status: 'success', changedItems: 1 });

    await dashboard.goto();
    await expect(dashboard.sinceLastVisitBanner()).toContainText('1 change since your last visit');
    await dashboard.sinceLastVisitBanner().getByRole('button', { name: 'Show changes' }).click();
    await expect(page).toHaveURL(/sinceLastVisit=true/);
    await expect(dashboard.rows()).toHaveCount(1);
    await expect(dashboard.row(ARCHIVE_IDS.renamedLater)).toContainText('(renamed)');
    // Kept in the URL and combinable: with another filter that excludes it, nothing is left.
    await dashboard.showFilters();
    await expect(dashboard.filters.getByRole('checkbox', { name: 'Since my last visit' })).toBeChecked();
    await dashboard.sourceCheckbox('Roadmap (Future Features)').uncheck();
    await expect(page.getByText('No items found matching your current filters.')).toBeVisible();
    await context.close();
  });
});
