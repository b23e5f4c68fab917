import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { AdminPage, E2E_ADMIN_EMAIL } from '../pages/AdminPage.js';
import { expectAccessible } from '../support/a11y.js';
import { signIn } from '../support/sign-in.js';

// The global setup (support/global-setup.ts) makes E2E_ADMIN_EMAIL an Admin and replays the demo feeds locally.

test.describe('admin dashboard', () => {
  test('a non-admin sees Access Denied with its two ways out', async ({ userPage }) => {
    const admin = new AdminPage(userPage);
    await admin.goto();
    await expect(admin.accessDenied).toBeVisible();
    await expect(admin.page.getByRole('tab')).toHaveCount(0);
    await expect(admin.page.getByRole('button', { name: 'Clear impersonation' })).toHaveCount(0);
    await admin.page.getByRole('link', { name: 'Request Access' }).click();
    await expect(admin.page).toHaveURL(/\/contact$/);
  });

  test('an admin who impersonates User can always get back: Access Denied offers Clear impersonation', async ({ browser, mailbox, baseURL }) => {
    // A session of its own: impersonation belongs to a session, and the worker's admin session must stay an Admin.
    const state = await signIn(browser, baseURL ?? '', mailbox, { firstName: 'Erin', lastName: 'Admin', email: E2E_ADMIN_EMAIL });
    const context = await browser.newContext({ baseURL, storageState: state });
    const admin = new AdminPage(await context.newPage());
    await admin.page.goto('/test-moderator');
    // A controlled radio group: it shows the new choice once the server has applied it.
    await admin.page.getByRole('radio', { name: 'User' }).click();
    await expect(admin.page.getByText('Impersonating: User')).toBeVisible();
    await expect(admin.page.getByRole('radio', { name: 'User' })).toBeChecked();
    await admin.goto();
    await expect(admin.accessDenied).toBeVisible();
    await expect(admin.page.getByText('You are impersonating the User role.')).toBeVisible();
    // Access Denied under the impersonation banner: the page an admin sees while impersonating.
    await expect(admin.page.getByRole('status', { name: 'Impersonation' })).toBeVisible();
    await expectAccessible(admin.page, 'Access Denied while impersonating, with the impersonation banner');
    await admin.page.getByRole('button', { name: 'Clear impersonation' }).click();
    await expect(admin.page.getByRole('tab', { name: 'Sync History', exact: true })).toBeVisible();
    await expect(admin.accessDenied).toHaveCount(0);
    await context.close();
  });

  test('an admin creates a role, assigns it, and removes it again', async ({ adminPage, browser, mailbox, baseURL }) => {
    // The role goes to an account of its own: a role change ends the holder's sessions, and the worker's admin session
    // must stay signed in for the tests after this one.
    const holder = uniqueEmail('e2e-auditor');
    await signIn(browser, baseURL ?? '', mailbox, { firstName: 'Ada', lastName: 'Auditor', email: holder });
    const admin = new AdminPage(adminPage);
    const role = `Auditor ${Date.now()}`;
    await admin.goto('Users');

    await admin.createRole(role, 'Reads the change log', 'read, export');
    await expect(admin.toast('Role created')).toBeVisible();
    await expect(admin.roleRow(role)).toContainText('Reads the change log');
    await expect(admin.roleRow(role)).toContainText('export');

    await admin.assignRole(new RegExp(holder.replace(/[.]/g, '\\.')), role);
    await expect(admin.toast('Role assigned')).toBeVisible();
    await expect(admin.userRow(holder).getByText(role, { exact: true })).toBeVisible();

    await admin.removeRole(holder, role);
    await expect(admin.toast('Role removed')).toBeVisible();
    await expect(admin.userRow(holder).getByText(role, { exact: true })).toHaveCount(0);
  });

  test('an admin triggers a roadmap sync against the recorded feed and sees the new history row', async ({ adminPage }) => {
    const admin = new AdminPage(adminPage);
    await admin.goto('Sync History');
    const before = await admin.syncRowCount();

    // The feed has not changed since the start-up sync: the conditional request gets a 304.
    await admin.page.getByRole('button', { name: 'Sync Roadmap' }).click();
    await expect(admin.toast('Sync Completed')).toBeVisible({ timeout: 45_000 });
    await expect(admin.page.getByRole('alert').filter({ hasText: 'Roadmap: Roadmap feed unchanged since the last sync: nothing to apply' })).toBeVisible();
    await expect(admin.syncRows()).toHaveCount(before + 1);
    const newest = admin.syncRows().first();
    await expect(newest).toContainText('Roadmap');
    await expect(newest).toContainText('v2 API');
    await expect(newest).toContainText('Unchanged');
    await expect(newest).toContainText('The feed answered 304 Not Modified.');
    // The start-up sync that applied it is listed as a success.
    await expect(admin.syncRows().filter({ hasText: 'Roadmap' }).filter({ hasText: 'Success' }).first()).toBeVisible();
  });

  test('an admin generates a 7-day digest report', async ({ adminPage }) => {
    const admin = new AdminPage(adminPage);
    await admin.goto('Digest');
    const status = await admin.generateDigest('Last 7 days');
    await expect(status).toContainText(/\d+ new and \d+ updated roadmap items, \d+ new and \d+ updated Message Center items/);
    for (const table of ['New Roadmap Items', 'Updated Roadmap Items', 'New Message Center Items', 'Updated Message Center Items']) {
      await expect(admin.page.getByRole('region', { name: table })).toBeVisible();
    }
  });
});
