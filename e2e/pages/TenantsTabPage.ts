import { expect, type Locator, type Page } from '@playwright/test';
import { AdminPage } from './AdminPage.js';

export type TenantCloud = 'Worldwide' | 'GCC' | 'GCC High' | 'DoD';

/** What Add tenant asks for: the tenant's Entra app and its cloud. */
export interface NewTenant {
  name: string;
  directoryId: string;
  clientId: string;
  secret: string;
  cloud: TenantCloud;
}

/** Admin → Tenants: the list, its add and remove dialogs, and each row's Test connection and Sync now. Role locators only. */
export class TenantsTabPage {
  readonly admin: AdminPage;
  readonly table: Locator;

  constructor(readonly page: Page) {
    this.admin = new AdminPage(page);
    this.table = page.getByRole('table', { name: 'Tenants' });
  }

  async goto() {
    await this.admin.goto('Tenants');
  }

  /** Fills Add tenant and saves; waits for the toast that says the tenant was added. */
  async add(tenant: NewTenant) {
    await this.page.getByRole('button', { name: 'Add tenant' }).click();
    const dialog = this.admin.dialog('Add a tenant');
    await dialog.getByLabel(/^Name/).fill(tenant.name);
    await dialog.getByLabel(/^Directory \(tenant\) ID/).fill(tenant.directoryId);
    await dialog.getByLabel(/^Application \(client\) ID/).fill(tenant.clientId);
    await dialog.getByLabel(/^Client secret/).fill(tenant.secret);
    await dialog.getByRole('combobox', { name: 'Cloud' }).click();
    await this.page.getByRole('option', { name: tenant.cloud, exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(this.admin.toast('Tenant added')).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  /** Runs Test connection on a tenant's row; answers the outcome it shows (one line per check). */
  async testConnection(name: string): Promise<Locator> {
    await this.row(name)
      .getByRole('button', { name: `Test connection of ${name}` })
      .click();
    return this.page.getByLabel(`Connection test of ${name}`);
  }

  /** Runs Sync now on a tenant's row; waits for the toast whose text matches `finished`. */
  async syncNow(name: string, finished: string | RegExp) {
    await this.row(name)
      .getByRole('button', { name: `Sync now: ${name}` })
      .click();
    await expect(this.admin.toast(finished)).toBeVisible();
  }

  /** Removes a tenant through its confirmation, with or without the posts no other tenant received; waits until its row is gone. */
  async remove(name: string, { deletePosts }: { deletePosts: boolean }) {
    await this.page.getByRole('button', { name: `Remove ${name}` }).click();
    const confirm = this.admin.dialog(`Remove ${name}?`);
    const alsoPosts = confirm.getByRole('checkbox', { name: 'Also delete the posts no other tenant received' });
    if (deletePosts) await alsoPosts.check();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(this.admin.toast('Tenant removed')).toBeVisible();
    await expect(this.page.getByRole('cell', { name, exact: true })).toBeHidden();
  }
}
