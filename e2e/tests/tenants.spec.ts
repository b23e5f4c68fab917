import { request, type Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { AdminPage } from '../pages/AdminPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ItemDialogPage } from '../pages/ItemDialogPage.js';
import { TenantsTabPage } from '../pages/TenantsTabPage.js';
import { AGENCY, removeAgency } from '../support/tenants.js';

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

test('an admin adds a tenant, tests and syncs it; its private posts show only to the users given it', async ({ adminPage, userPage, baseURL }) => {
  await removeAgency(adminPage);
  try {
    const admin = new AdminPage(adminPage);
    const tenants = new TenantsTabPage(adminPage);
    await tenants.goto();
    await tenants.add({ ...AGENCY, cloud: 'GCC High' });
    const row = tenants.row(AGENCY.name);
    await expect(row).toContainText('GCC High');
    await expect(row).toContainText('Private');

    const result = await tenants.testConnection(AGENCY.name);
    await expect(result).toContainText('Signed in with the app.');
    await expect(result).toContainText('Read Message Center.');
    await expect(result).toContainText('Read Service Health.');

    await tenants.syncNow(AGENCY.name, /Agency: Message Center sync finished: 2 new.*Service Health sync finished: 1 new/);
    await expect(row).toContainText('1 health issue');
    await expect(row).toContainText('2 live of 2');
    // A fresh page load: the Sync History answer of the first load is kept for minutes.
    await admin.goto('Sync History');
    await expect(admin.syncSource(`Message Center · ${AGENCY.name}`)).toBeVisible();

    // Its incident is one item of the Service Health source: the dialog shows where it stands and every update.
    const health = new DashboardPage(adminPage);
    await health.goto('?sources=health');
    await health.searchFor(AGENCY.incidentTitle);
    const incident = new ItemDialogPage(await health.openItem(AGENCY.incidentTitle));
    await expect(incident.section('Status timeline')).toContainText('Service restored');
    await expect(incident.section('Updates')).toContainText('Updates (3)');
    await expect(incident.section('Updates')).toContainText('queued mail was delivered');
    await expect(incident.section('Tenants')).toContainText(AGENCY.name);
    await incident.close();

    // The admin sees the tenant's posts; a user who was not given the tenant does not, nor does a guest's feed.
    const adminList = await listed(adminPage, AGENCY.title);
    await expect(adminList.row(AGENCY.postIds[0]!)).toBeVisible();
    // The admin sees two tenants (the GRAPH_* one and Agency); only Agency received its posts.
    await expect(adminList.row(AGENCY.postIds[0]!)).toContainText('Received by 1 of 2 tenants');
    const user = await listed(userPage, AGENCY.title);
    await expect(user.noItems).toBeVisible();
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
    await admin.giveTenant(me.user.email, AGENCY.name);
    await userPage.reload();
    await user.searchFor(AGENCY.title);
    await expect(user.row(AGENCY.postIds[0]!)).toBeVisible();
    expect(await (await userPage.request.get(`/api/dashboard/export?search=${encodeURIComponent(AGENCY.title)}`)).text()).toContain(AGENCY.postIds[0]);
    // And its incident, in the list and in the user's own feed (read with the user's session).
    expect((await (await userPage.request.get(`/api/unified/items?sources=health&search=${AGENCY.issueId}`)).json()).total).toBe(1);
    expect(await (await userPage.request.get(`/api/feeds/items.rss?sources=health`)).text()).toContain(AGENCY.incidentTitle);

    // Removing the tenant asks first; with its posts deleted they are gone for everyone.
    await tenants.goto();
    await tenants.remove(AGENCY.name, { deletePosts: true });
  } finally {
    await removeAgency(adminPage);
  }
});
