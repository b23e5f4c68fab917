import { expect, test } from '../support/fixtures.js';
import { AdminPage } from '../pages/AdminPage.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ShellPage } from '../pages/ShellPage.js';
import { startJiraServer, startServiceNowServer } from '../../api/test/tracker-servers.js';

// Work trackers end to end: an admin connects Jira (a local Jira Cloud replay server, api/test/tracker-servers.ts) and
// tests it; a moderator pushes a post from its dialog; the issue is closed in Jira; Pull now brings it back and the
// post is Done in the dashboard. The integration is deleted and the post put back to New at the end, so the suite
// can run again on the same product.

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };
const NAME = 'E2E change board';

test('connect Jira, push a post, close the issue in Jira and see it Done', async ({ adminPage, moderatorPage }) => {
  const jira = await startJiraServer();
  const list = await moderatorPage.request.get('/api/unified/items?sources=messages&limit=2&sortField=createdDate');
  const post = ((await list.json()) as { items: { messageId: string; title: string }[] }).items[1];
  if (!post) throw new Error('the product has no Message Center post to push');
  const path = `/api/triage/message-center/${post.messageId}`;
  const tenant = ((await (await moderatorPage.request.get(path)).json()) as { tenantId: number | null }).tenantId;
  const query = tenant ? `?tenant=${tenant}` : '';
  try {
    await moderatorPage.request.put(`${path}${query}`, { data: { state: 'new' }, headers: SAME_ORIGIN });

    // The admin connects Jira and tests it.
    const admin = new AdminPage(adminPage);
    await admin.goto('Integrations');
    await adminPage.getByRole('button', { name: 'Connect a tracker' }).click();
    const dialog = admin.dialog('Connect a tracker');
    await dialog.getByLabel(/^Name/).fill(NAME);
    await dialog.getByLabel(/^Site URL/).fill(jira.url);
    await dialog.getByLabel(/^Account e-mail/).fill('bot@contoso.com');
    await dialog.getByLabel(/^API token/).fill('jira-token');
    await dialog.getByLabel(/^Project key/).fill('CHG');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.toast('Tracker connected')).toBeVisible();
    const row = adminPage.getByRole('row').filter({ has: adminPage.getByRole('cell', { name: NAME, exact: true }) });
    await row.getByRole('button', { name: `Test ${NAME}` }).click();
    const result = adminPage.getByLabel(`Connection test of ${NAME}`);
    await expect(result).toContainText('✓ Sign-in: Signed in as Radar Bot');
    await expect(result).toContainText('✓ Permissions');

    // The moderator pushes the post from its dialog.
    const board = new DashboardPage(moderatorPage);
    const item = await board.gotoItem(`?message=${encodeURIComponent(post.messageId)}`, post.title);
    const tasks = item.getByRole('region', { name: 'Tasks in trackers' });
    await tasks.getByRole('button', { name: `Create task in ${NAME}` }).click();
    await expect(new ShellPage(moderatorPage).toast('Task created')).toBeVisible();
    await expect(tasks.getByRole('link', { name: 'CHG-1' })).toHaveAttribute('href', `${jira.url}/browse/CHG-1`);
    expect(jira.issues.get('CHG-1')?.fields.summary).toBe(`${post.messageId}: ${post.title}`);

    // Closed in Jira; the admin reads the tasks now; the post is Done in the dashboard.
    jira.close('CHG-1', 'Jamie Jira');
    await admin.goto('Integrations');
    await row.getByRole('button', { name: `Pull now ${NAME}` }).click();
    await expect(admin.toast('Tasks read')).toBeVisible();
    await board.goto('?triage=done');
    await board.searchFor(post.messageId);
    await expect(board.row(post.messageId).locator('[data-col="state"]')).toHaveText('Done');
  } finally {
    const integrations = (await (await adminPage.request.get('/api/admin/integrations')).json()) as { integrations: { id: number; name: string }[] };
    for (const i of integrations.integrations.filter((x) => x.name === NAME)) {
      await adminPage.request.delete(`/api/admin/integrations/${i.id}`, { headers: SAME_ORIGIN });
    }
    await moderatorPage.request.put(`${path}${query}`, { data: { state: 'new' }, headers: SAME_ORIGIN });
    await jira.stop();
  }
});

test('connect ServiceNow with an OAuth client: Authorize goes to the consent page and back, and Test signs in', async ({ adminPage }) => {
  const snow = await startServiceNowServer({ oauth: { clientId: 'radar-app', clientSecret: 'app-secret' } });
  const name = 'E2E ITSM (OAuth)';
  try {
    const admin = new AdminPage(adminPage);
    await admin.goto('Integrations');
    await adminPage.getByRole('button', { name: 'Connect a tracker' }).click();
    const dialog = admin.dialog('Connect a tracker');
    await dialog.getByRole('combobox', { name: 'Tracker' }).click();
    await adminPage.getByRole('option', { name: 'ServiceNow' }).click();
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Instance URL/).fill(snow.url);
    await dialog.getByRole('combobox', { name: 'Sign in with' }).click();
    await adminPage.getByRole('option', { name: 'OAuth client (Application Registry)' }).click();
    await expect(dialog.getByText(/Register this callback URL with the app: .*\/api\/admin\/integrations\/oauth\/callback/)).toBeVisible();
    await dialog.getByLabel(/^Client ID/).fill('radar-app');
    await dialog.getByLabel(/^Client secret/).fill('app-secret');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.toast('Tracker connected')).toBeVisible();
    const row = adminPage.getByRole('row').filter({ has: adminPage.getByRole('cell', { name, exact: true }) });
    await expect(row).toContainText('Not authorized: use Authorize');

    // The instance's consent page answers at once (the local server consents) and sends the browser back.
    await row.getByRole('button', { name: `Authorize ${name}` }).click();
    await adminPage.waitForURL(/\/admin\?tab=integrations$/);
    await expect(admin.toast('Integration authorized')).toBeVisible();
    await expect(row).not.toContainText('Not authorized');
    await row.getByRole('button', { name: `Test ${name}` }).click();
    await expect(adminPage.getByLabel(`Connection test of ${name}`)).toContainText('✓ Sign-in: Signed in as the authorized user');
    expect(snow.oauth?.grants).toEqual(['authorization_code']);
  } finally {
    const integrations = (await (await adminPage.request.get('/api/admin/integrations')).json()) as { integrations: { id: number; name: string }[] };
    for (const i of integrations.integrations.filter((x) => x.name === name)) {
      await adminPage.request.delete(`/api/admin/integrations/${i.id}`, { headers: SAME_ORIGIN });
    }
    await snow.stop();
  }
});
