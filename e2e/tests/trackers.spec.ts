import { expect, test } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { TrackersTabPage } from '../pages/TrackersTabPage.js';
import { ItemDialogPage } from '../pages/ItemDialogPage.js';
import { startJiraServer, startServiceNowServer } from '../../api/test/tracker-servers.js';

// Work trackers end to end: an admin connects Jira (a local Jira Cloud replay server, api/test/tracker-servers.ts) and
// tests it; a moderator pushes a post from its dialog; the issue is closed in Jira; Pull now brings it back and the
// post is Done in the dashboard. The tracker is deleted and the post put back to New at the end, so the suite
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
    const trackers = new TrackersTabPage(adminPage);
    await trackers.goto();
    await trackers.connectJira({ name: NAME, siteUrl: jira.url, email: 'bot@contoso.com', apiToken: 'jira-token', projectKey: 'CHG' });
    const result = await trackers.test(NAME);
    await expect(result).toContainText('✓ Sign-in: Signed in as Radar Bot');
    await expect(result).toContainText('✓ Permissions');

    // The moderator pushes the post from its dialog.
    const board = new DashboardPage(moderatorPage);
    const item = new ItemDialogPage(await board.gotoItem(`?message=${encodeURIComponent(post.messageId)}`, post.title));
    await item.createTask(NAME);
    await expect(item.taskLink('CHG-1')).toHaveAttribute('href', `${jira.url}/browse/CHG-1`);
    expect(jira.issues.get('CHG-1')?.fields.summary).toBe(`${post.messageId}: ${post.title}`);

    // Closed in Jira; the admin reads the tasks now; the post is Done in the dashboard.
    jira.close('CHG-1', 'Jamie Jira');
    await trackers.goto();
    await trackers.pullNow(NAME);
    await board.goto('?triage=done');
    await board.searchFor(post.messageId);
    await expect(board.stateCell(post.messageId)).toHaveText('Done');
  } finally {
    const trackers = (await (await adminPage.request.get('/api/admin/integrations')).json()) as { trackers: { id: number; name: string }[] };
    for (const i of trackers.trackers.filter((x) => x.name === NAME)) {
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
    const trackers = new TrackersTabPage(adminPage);
    await trackers.goto();
    await trackers.startServiceNowOAuth({ name, instanceUrl: snow.url });
    await expect(trackers.callbackUrlHint()).toBeVisible();
    await trackers.finishServiceNowOAuth({ clientId: 'radar-app', clientSecret: 'app-secret' });
    const row = trackers.row(name);
    await expect(row).toContainText('Not authorized: use Authorize');

    // The instance's consent page answers at once (the local server consents) and sends the browser back.
    await trackers.authorize(name);
    await expect(row).not.toContainText('Not authorized');
    await expect(await trackers.test(name)).toContainText('✓ Sign-in: Signed in as the authorized user');
    expect(snow.oauth?.grants).toEqual(['authorization_code']);
  } finally {
    const trackers = (await (await adminPage.request.get('/api/admin/integrations')).json()) as { trackers: { id: number; name: string }[] };
    for (const i of trackers.trackers.filter((x) => x.name === name)) {
      await adminPage.request.delete(`/api/admin/integrations/${i.id}`, { headers: SAME_ORIGIN });
    }
    await snow.stop();
  }
});
