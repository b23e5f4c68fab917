import { request, type Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { AdminPage } from '../pages/AdminPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { AGENCY } from '../support/tenants.js';

// Tenants end to end: an admin adds a GCC High tenant (its Graph is a local server, support/tenants.ts), tests its
// connection and syncs it; its posts are private, so a user sees them only once the admin gives them the tenant, in
// the list and the export, and a guest's feed never holds them. The tenant is removed with its posts at the end, so
// the other suites see the product as before.

async function listed(page: Page, text: string) {
  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await dashboard.searchFor(text);
  return dashboard;
}

async function removeAgency(page: Page) {
  const list = (await (await page.request.get('/api/admin/tenants')).json()) as { id: number; name: string }[];
  const agency = list.find((t) => t.name === AGENCY.name);
  if (agency) await page.request.delete(`/api/admin/tenants/${agency.id}?deletePosts=true`, { headers: { 'Sec-Fetch-Site': 'same-origin' } });
}

test('an admin adds a tenant, tests and syncs it; its private posts show only to the users given it', async ({ adminPage, userPage, baseURL }) => {
  await removeAgency(adminPage);
  try {
    const admin = new AdminPage(adminPage);
    await admin.goto('Tenants');
    await adminPage.getByRole('button', { name: 'Add tenant' }).click();
    const dialog = admin.dialog('Add a tenant');
    await dialog.getByLabel(/^Name/).fill(AGENCY.name);
    await dialog.getByLabel(/^Directory \(tenant\) ID/).fill(AGENCY.directoryId);
    await dialog.getByLabel(/^Application \(client\) ID/).fill(AGENCY.clientId);
    await dialog.getByLabel(/^Client secret/).fill(AGENCY.secret);
    await dialog.getByRole('combobox', { name: 'Cloud' }).click();
    await adminPage.getByRole('option', { name: 'GCC High' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.toast('Tenant added')).toBeVisible();
    const row = adminPage.getByRole('row').filter({ has: adminPage.getByRole('cell', { name: AGENCY.name, exact: true }) });
    await expect(row).toContainText('GCC High');
    await expect(row).toContainText('Private');

    await row.getByRole('button', { name: `Test connection of ${AGENCY.name}` }).click();
    const result = adminPage.getByLabel(`Connection test of ${AGENCY.name}`);
    await expect(result).toContainText('Signed in with the app.');
    await expect(result).toContainText('Read Message Center.');
    await expect(result).toContainText('Read Service Health.');

    await row.getByRole('button', { name: `Sync now: ${AGENCY.name}` }).click();
    await expect(admin.toast(/Agency: Message Center sync finished: 2 new.*Service Health sync finished: 1 new/)).toBeVisible();
    await expect(row).toContainText('1 health issue');
    await expect(row).toContainText('2 live of 2');
    // A fresh page load: the Sync History answer of the first load is kept for minutes.
    await admin.goto('Sync History');
    await expect(admin.syncTable.getByRole('cell', { name: `Message Center · ${AGENCY.name}` }).first()).toBeVisible();

    // Its incident is one item of the Service Health source: the dialog shows where it stands and every update.
    const health = new DashboardPage(adminPage);
    await health.goto('?sources=health');
    await health.searchFor(AGENCY.incidentTitle);
    const incident = await health.openItem(AGENCY.incidentTitle);
    await expect(incident.getByRole('region', { name: 'Status timeline' })).toContainText('Service restored');
    await expect(incident.getByRole('region', { name: 'Updates' })).toContainText('Updates (3)');
    await expect(incident.getByRole('region', { name: 'Updates' })).toContainText('queued mail was delivered');
    await expect(incident.getByRole('region', { name: 'Tenants' })).toContainText(AGENCY.name);
    await incident.getByRole('button', { name: 'Close' }).click();

    // The admin sees the tenant's posts; a user who was not given the tenant does not, nor does a guest's feed.
    const adminList = await listed(adminPage, AGENCY.title);
    await expect(adminList.row(AGENCY.postIds[0]!)).toBeVisible();
    // The admin sees two tenants (the GRAPH_* one and Agency); only Agency received its posts.
    await expect(adminList.row(AGENCY.postIds[0]!)).toContainText('Received by 1 of 2 tenants');
    const user = await listed(userPage, AGENCY.title);
    await expect(userPage.getByText('No items found matching your current filters.')).toBeVisible();
    expect(await (await userPage.request.get(`/api/dashboard/export?search=${encodeURIComponent(AGENCY.title)}`)).text()).not.toContain(AGENCY.postIds[0]);
    expect((await (await userPage.request.get(`/api/unified/items?sources=health&search=${AGENCY.issueId}`)).json()).total).toBe(0);
    expect((await userPage.request.get(`/api/service-health/issues/${AGENCY.issueId}`)).status()).toBe(404);
    const guest = await request.newContext({ baseURL });
    expect(await (await guest.get(`/api/feeds/items.rss?search=${AGENCY.postIds[0]}`)).text()).not.toContain(AGENCY.title);
    expect(await (await guest.get(`/api/feeds/items.rss?sources=health`)).text()).not.toContain(AGENCY.incidentTitle);
    await guest.dispose();

    // Given the tenant on the Users tab, the user sees its posts in the list and the export.
    const me = (await (await userPage.request.get('/api/auth/session-user')).json()) as { user: { email: string } };
    await admin.goto('Users');
    await adminPage.getByRole('button', { name: `Tenants of ${me.user.email}` }).click();
    const grant = adminPage.getByRole('dialog', { name: /^Tenants of / });
    await grant.getByRole('checkbox', { name: AGENCY.name }).check();
    await grant.getByRole('button', { name: 'Save' }).click();
    await expect(admin.toast('Tenants saved')).toBeVisible();
    await userPage.reload();
    await user.searchFor(AGENCY.title);
    await expect(user.row(AGENCY.postIds[0]!)).toBeVisible();
    expect(await (await userPage.request.get(`/api/dashboard/export?search=${encodeURIComponent(AGENCY.title)}`)).text()).toContain(AGENCY.postIds[0]);
    // And its incident, in the list and in the user's own feed (read with the user's session).
    expect((await (await userPage.request.get(`/api/unified/items?sources=health&search=${AGENCY.issueId}`)).json()).total).toBe(1);
    expect(await (await userPage.request.get(`/api/feeds/items.rss?sources=health`)).text()).toContain(AGENCY.incidentTitle);

    // Removing the tenant asks first; with its posts deleted they are gone for everyone.
    await admin.goto('Tenants');
    await adminPage.getByRole('button', { name: `Remove ${AGENCY.name}` }).click();
    const confirm = admin.dialog(`Remove ${AGENCY.name}?`);
    await confirm.getByRole('checkbox', { name: 'Also delete the posts no other tenant received' }).check();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(admin.toast('Tenant removed')).toBeVisible();
    await expect(adminPage.getByRole('cell', { name: AGENCY.name, exact: true })).toBeHidden();
  } finally {
    await removeAgency(adminPage);
  }
});
