import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { endpointUrl, endpoints } from '@radar/contracts';
import { pickPerson } from './people.js';

export type TriageViewLabel = 'All items' | 'My queue' | 'Unassigned' | 'Overdue' | 'Due in 30 days' | 'Done';

/** The dashboard (/dashboard): list, filters, sort, export and the item dialogs. Role locators only. */
export class DashboardPage {
  readonly page: Page;
  readonly search: Locator;
  readonly exportButton: Locator;
  readonly filters: Locator;
  readonly table: Locator;
  readonly pagination: Locator;
  /** The triage queue views beside the filters (signed-in users). */
  readonly triageViews: Locator;
  /** The bar that changes the selected rows' triage at once (moderators and admins). */
  readonly bulkBar: Locator;
  /** The bulk bar's count of selected rows. */
  readonly bulkSelection: Locator;
  /** What a bulk change says it did ("N items changed."). */
  readonly bulkOutcome: Locator;
  /** What the list says when nothing matches. */
  readonly noItems: Locator;
  /** The answer to the visit the page records after hydration (signed in), or null (a guest records none). */
  private visit: Promise<{ lastVisitAt: string | null } | null> = Promise.resolve(null);

  constructor(page: Page) {
    this.page = page;
    this.search = page.getByPlaceholder('Search items...');
    this.exportButton = page.getByRole('button', { name: 'Export' });
    this.filters = page.getByRole('complementary', { name: 'Filters' });
    this.table = page.getByRole('table', { name: 'Items' });
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
    this.triageViews = page.getByRole('group', { name: 'Triage view' });
    this.bulkBar = page.getByRole('region', { name: 'Bulk triage' });
    this.bulkSelection = this.bulkBar.getByRole('status');
    this.bulkOutcome = page.getByText(/\d+ items changed\./);
    this.noItems = page.getByText('No items found matching your current filters.');
  }

  /** Opens the list (no item parameter) and waits for its heading. */
  async goto(query = '') {
    if (/[?&](roadmap|message)=/.test(query)) throw new Error('Use gotoItem for a deep link: its dialog hides the page heading');
    this.visit = this.page
      .waitForResponse(
        (r) => r.request().method() === endpoints.items.dashboardVisit.method && new URL(r.url()).pathname === endpointUrl(endpoints.items.dashboardVisit),
        { timeout: 30_000 },
      )
      .then((r) => r.json() as Promise<{ lastVisitAt: string | null }>)
      .catch(() => null);
    await this.page.goto(`/dashboard${query}`);
    await expect(this.page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  }

  /**
   * Opens a deep link (?roadmap=… or ?message=…) and waits for the item's dialog. Not for the page heading: the
   * modal dialog hides the rest of the page from the accessibility tree, so the heading may never be found by role
   * once the dialog is open (it can open before the list has rendered).
   */
  async gotoItem(query: string, title: string | RegExp) {
    await this.page.goto(`/dashboard${query}`);
    const dialog = this.dialog(title);
    await expect(dialog).toBeVisible();
    return dialog;
  }

  rows() {
    return this.table.locator('tbody tr[data-item-id]');
  }

  row(providerId: string) {
    return this.rows().filter({ has: this.page.getByRole('cell', { name: providerId, exact: true }) });
  }

  /** A row's triage state cell. */
  stateCell(providerId: string) {
    return this.row(providerId).locator('[data-col="state"]');
  }

  /**
   * Switches to a triage queue view and waits until it is the one shown. The views are a signed-in reader's, whose
   * visit the page records after hydration: a returning reader's "… since your last visit" banner then arrives above
   * them and moves them down 66 px (a known layout shift, docs/benchmarks.md "First paint"), so the click waits for it
   * rather than land where the button was.
   */
  async showView(name: TriageViewLabel) {
    if ((await this.visit)?.lastVisitAt) await expect(this.page.getByText(/since your last visit/)).toBeVisible();
    const button = this.triageViews.getByRole('button', { name, exact: true });
    await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  }

  /** Ticks the header checkbox that selects every row on the page, which brings up the bulk bar. */
  async selectAllOnPage() {
    await this.page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await expect(this.bulkBar).toBeVisible();
  }

  /** In the bulk bar: the person to give the selected rows to. */
  async bulkAssignTo(email: string) {
    await pickPerson(this.bulkBar.getByRole('combobox', { name: 'Assign to' }), email);
  }

  /** Applies the bulk bar's change to its `rows` selected rows. */
  async applyBulk(rows: number) {
    await this.bulkBar.getByRole('button', { name: `Apply to ${rows} rows` }).click();
  }

  async searchFor(text: string) {
    await this.search.fill(text);
    // The box applies what was typed after a pause (debounced): until then the table is the previous list, not busy.
    await expect.poll(() => new URL(this.page.url()).searchParams.get('search')).toBe(text);
    await expect(this.table).not.toHaveAttribute('aria-busy', 'true');
  }

  async openItem(title: string) {
    await this.table.getByRole('button', { name: title, exact: true }).first().click();
    return this.dialog(title);
  }

  dialog(title: string | RegExp) {
    return this.page.getByRole('dialog', { name: title });
  }

  /** Header Subscribe menu: copies a feed URL of the current view ('Copy RSS feed URL', …) to the clipboard. */
  async copyFeedUrl(item: 'Copy RSS feed URL' | 'Copy Atom feed URL' | 'Copy calendar URL'): Promise<string> {
    await this.page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await this.page
      .getByRole('menu', { name: 'Subscribe' })
      .getByRole('menuitem', { name: new RegExp(item) })
      .click();
    await expect(this.page.getByText('Link Copied')).toBeVisible();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Header "Save search": saves the current view under `name`, sending to the e-mail default plus `channels`. */
  async saveSearch(name: string, channels: string[] = []) {
    await this.page.getByRole('button', { name: 'Save search', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Save search' });
    await dialog.getByRole('textbox', { name: 'Search name' }).fill(name);
    for (const channel of channels) await dialog.getByRole('checkbox', { name: new RegExp(`^${channel} \\(`) }).check();
    await dialog.getByRole('button', { name: 'Save search' }).click();
    await expect(this.page.getByRole('region', { name: 'Notifications (F8)' }).getByText('Search saved')).toBeVisible();
    await expect(dialog).toHaveCount(0);
  }

  async showFilters() {
    await this.page.getByRole('button', { name: 'Show Filters' }).click();
    await expect(this.filters).toBeVisible();
  }

  async openSection(name: string) {
    const toggle = this.filters.getByRole('button', { name, exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }

  sourceCheckbox(label: 'Roadmap (Future Features)' | 'Message Center (Current Updates)') {
    return this.filters.getByRole('checkbox', { name: label });
  }

  /** Data Source: the archive switch. */
  includeRemovedSwitch() {
    return this.filters.getByRole('switch', { name: 'Include removed and expired' });
  }

  /** Recent Activity: "Release date moved" in the last 7 or 30 days. */
  releaseMovedOption(label: 'Last 7 Days' | 'Last 30 Days') {
    return this.filters.getByRole('group', { name: 'Release date moved' }).getByRole('checkbox', { name: label });
  }

  /** The "N changes since your last visit" notice. */
  sinceLastVisitBanner() {
    return this.page.getByRole('alert').filter({ hasText: 'since your last visit' });
  }

  /** Opens "Compare versions" in an item dialog; returns the comparison region. */
  async compareVersions(dialog: Locator) {
    await dialog.getByRole('button', { name: 'Compare versions' }).click();
    const region = dialog.getByRole('region', { name: 'Compare versions' });
    await expect(region.getByRole('table', { name: 'Changed fields' })).toBeVisible();
    return region;
  }

  async tick(section: string, option: string | RegExp) {
    await this.openSection(section);
    await this.filters.getByRole('group', { name: section }).getByRole('checkbox', { name: option }).first().check();
  }

  /** Total from 'Page X of N (T total items)', or the row count when everything fits on one page. */
  async listTotal(): Promise<number> {
    await expect(this.table).not.toHaveAttribute('aria-busy', 'true');
    if (await this.pagination.isVisible()) {
      const text = (await this.pagination.getByRole('status').textContent()) ?? '';
      const match = /\(([\d,]+) total items\)/.exec(text);
      if (!match) throw new Error(`Unexpected pagination text: ${text}`);
      return Number(match[1].replace(/,/g, ''));
    }
    return this.rows().count();
  }

  async exportCsv(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.exportButton.click()]);
    await expect(this.page.getByText('Export completed')).toBeVisible();
    return download;
  }
}
