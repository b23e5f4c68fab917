import { expect, type Locator, type Page } from '@playwright/test';
import { ShellPage } from './ShellPage.js';

export type AdminTab =
  | 'Sync History'
  | 'Change History'
  | 'Users'
  | 'Tenants'
  | 'Products'
  | 'Triage'
  | 'Trackers'
  | 'Contact Forms'
  | 'Digest'
  | 'Analytics'
  | 'AI Summary'
  | 'Activity'
  | 'Remotes';

/**
 * The e2e admin: the global setup must start the api with ADMIN_EMAILS containing this address
 * (RADAR_E2E_ADMIN_EMAIL overrides it for both sides).
 */
export const E2E_ADMIN_EMAIL = process.env.RADAR_E2E_ADMIN_EMAIL ?? 'e2e-admin@example.com';

/** /admin: the access check, the tabs and the parts the suites drive. Role locators only. */
export class AdminPage {
  readonly shell: ShellPage;
  readonly heading: Locator;
  readonly accessDenied: Locator;
  readonly syncTable: Locator;
  readonly rolesTable: Locator;
  readonly usersTable: Locator;

  constructor(readonly page: Page) {
    this.shell = new ShellPage(page);
    this.heading = page.getByRole('heading', { name: 'Admin Dashboard', level: 1 });
    this.accessDenied = page.getByRole('heading', { name: 'Access Denied' });
    this.syncTable = page.getByRole('table', { name: 'Sync history' });
    this.rolesTable = page.getByRole('table', { name: 'Roles' });
    this.usersTable = page.getByRole('table', { name: 'Users' });
  }

  async goto(tab?: AdminTab) {
    await this.page.goto('/admin');
    await expect(this.heading).toBeVisible();
    if (tab) await this.openTab(tab);
  }

  async openTab(tab: AdminTab) {
    await this.page.getByRole('tab', { name: tab, exact: true }).click();
    await expect(this.page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
  }

  toast(text: string | RegExp) {
    return this.shell.toast(text);
  }

  dialog(name: string) {
    return this.page.getByRole('dialog', { name });
  }

  // Users tab

  async createRole(name: string, description: string, permissions: string) {
    await this.page.getByRole('button', { name: 'Create Role' }).click();
    const dialog = this.dialog('Create Role');
    await dialog.getByLabel(/Role name/).fill(name);
    await dialog.getByLabel('Description').fill(description);
    await dialog.getByLabel('Permissions').fill(permissions);
    await dialog.getByRole('button', { name: 'Create Role' }).click();
    await expect(dialog).toBeHidden();
  }

  roleRow(name: string) {
    return this.rolesTable.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  async assignRole(userOption: string | RegExp, role: string) {
    await this.page.getByRole('combobox', { name: 'User' }).click();
    await this.page.getByRole('option', { name: userOption }).click();
    await this.page.getByRole('combobox', { name: 'Role' }).click();
    await this.page.getByRole('option', { name: role, exact: true }).click();
    await this.page.getByRole('button', { name: 'Assign Role' }).click();
  }

  userRow(email: string) {
    return this.usersTable.getByRole('row').filter({ has: this.page.getByRole('cell', { name: email, exact: true }) });
  }

  async removeRole(email: string, role: string) {
    await this.userRow(email)
      .getByRole('button', { name: `Remove role ${role} from ${email}` })
      .click();
    const dialog = this.dialog('Remove role');
    await expect(dialog).toContainText(`Remove the role "${role}"`);
    await dialog.getByRole('button', { name: 'Remove Role' }).click();
    await expect(dialog).toBeHidden();
  }

  /** Gives a user a private tenant on the Users tab; waits for the toast that says it was saved. */
  async giveTenant(email: string, tenant: string) {
    await this.page.getByRole('button', { name: `Tenants of ${email}` }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Tenants of / });
    await dialog.getByRole('checkbox', { name: tenant }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(this.toast('Tenants saved')).toBeVisible();
  }

  // Sync History tab

  /** A sync's source cell (`Message Center · Agency`): the first of its runs. */
  syncSource(name: string) {
    return this.syncTable.getByRole('cell', { name }).first();
  }

  syncRows() {
    return this.syncTable.locator('tbody tr');
  }

  async syncRowCount(): Promise<number> {
    // The list may still be loading, or empty (no table at all) on a fresh database.
    await expect(this.page.getByText(/Loading sync history/)).toBeHidden();
    return (await this.syncTable.count()) ? this.syncRows().count() : 0;
  }

  // Digest tab

  async generateDigest(timeframe: 'Last 24 hours' | 'Last 7 days' | 'Last 30 days') {
    await this.page.getByRole('button', { name: timeframe }).click();
    await this.page.getByRole('button', { name: 'Generate Report' }).click();
    const status = this.page.getByRole('status').filter({ hasText: `${timeframe}:` });
    await expect(status).toBeVisible();
    return status;
  }
}
