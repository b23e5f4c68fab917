import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { AdminPage, E2E_ADMIN_EMAIL } from '../pages/AdminPage.js';
import { signInThroughDialog, type StorageState } from '../support/sign-in.js';

// The global setup (support/global-setup.ts) makes E2E_ADMIN_EMAIL an Admin and replays the demo feeds locally.

test.describe('admin dashboard', () => {
  test.describe.configure({ mode: 'serial' });
  let adminState: StorageState;

  test.beforeAll(async ({ browser, mailbox }) => {
    adminState = await signInThroughDialog(browser, process.env.RADAR_BASE_URL ?? '', mailbox, {
      firstName: 'Erin',
      lastName: 'Admin',
      email: E2E_ADMIN_EMAIL,
    });
  });

  test('a non-admin sees Access Denied with its two ways out', async ({ browser, mailbox }) => {
    const state = await signInThroughDialog(browser, process.env.RADAR_BASE_URL ?? '', mailbox, {
      firstName: 'Nina',
      lastName: 'User',
      email: uniqueEmail('nina'),
    });
    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: state });
    const admin = new AdminPage(await context.newPage());
    await admin.goto();
    await expect(admin.accessDenied).toBeVisible();
    await expect(admin.page.getByRole('tab')).toHaveCount(0);
    await admin.page.getByRole('link', { name: 'Request Access' }).click();
    await expect(admin.page).toHaveURL(/\/contact$/);
    await context.close();
  });

  test('an admin creates a role, assigns it, and removes it again', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: adminState });
    const admin = new AdminPage(await context.newPage());
    const role = `Auditor ${Date.now()}`;
    await admin.goto('Users');

    await admin.createRole(role, 'Reads the change log', 'read, export');
    await expect(admin.toast('Role created')).toBeVisible();
    await expect(admin.roleRow(role)).toContainText('Reads the change log');
    await expect(admin.roleRow(role)).toContainText('export');

    await admin.assignRole(new RegExp(E2E_ADMIN_EMAIL.replace(/[.]/g, '\\.')), role);
    await expect(admin.toast('Role assigned')).toBeVisible();
    await expect(admin.userRow(E2E_ADMIN_EMAIL).getByText(role, { exact: true })).toBeVisible();

    await admin.removeRole(E2E_ADMIN_EMAIL, role);
    await expect(admin.toast('Role removed')).toBeVisible();
    await expect(admin.userRow(E2E_ADMIN_EMAIL).getByText(role, { exact: true })).toHaveCount(0);
    // Changing one's own roles ends one's other sessions and renews this one: later tests use the renewed session.
    adminState = await context.storageState();
    await context.close();
  });

  test('an admin triggers a roadmap sync against the recorded feed and sees the new history row', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: adminState });
    const admin = new AdminPage(await context.newPage());
    await admin.goto('Sync History');
    const before = await admin.syncRowCount();

    // The feed has not changed since the start-up sync: the conditional request gets a 304.
    await admin.page.getByRole('button', { name: 'Sync Roadmap' }).click();
    await expect(admin.toast('Sync Completed')).toBeVisible({ timeout: 45_000 });
    await expect(admin.page.getByRole('alert').filter({ hasText: 'Roadmap: Roadmap feed unchanged since the last sync: nothing to apply' })).toBeVisible();
    await expect(admin.syncRows()).toHaveCount(before + 1);
    const newest = admin.syncRows().first();
    await expect(newest).toContainText('Roadmap');
    await expect(newest).toContainText('JSON feed');
    await expect(newest).toContainText('Unchanged');
    await expect(newest).toContainText('The feed answered 304 Not Modified.');
    // The start-up sync that applied it is listed as a success.
    await expect(admin.syncRows().filter({ hasText: 'Roadmap' }).filter({ hasText: 'Success' }).first()).toBeVisible();
    await context.close();
  });

  test('an admin generates a 7-day digest report', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.RADAR_BASE_URL, storageState: adminState });
    const admin = new AdminPage(await context.newPage());
    await admin.goto('Digest');
    const status = await admin.generateDigest('Last 7 days');
    await expect(status).toContainText(/\d+ new and \d+ updated roadmap items, \d+ new and \d+ updated Message Center items/);
    for (const table of ['New Roadmap Items', 'Updated Roadmap Items', 'New Message Center Items', 'Updated Message Center Items']) {
      await expect(admin.page.getByRole('region', { name: table })).toBeVisible();
    }
    await context.close();
  });
});
