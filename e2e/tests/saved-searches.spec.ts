import crypto from 'node:crypto';
import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { NotificationsPage } from '../pages/NotificationsPage.js';
import { ALERTED_MESSAGE_NEW_TITLE, ARCHIVE_IDS } from '../support/feeds.js';
import { syncSnapshot } from '../support/feed-control.js';
import { signIn } from '../support/sign-in.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../api/test/webhook-receiver.js';

// Saved searches end to end: a webhook channel added on /notifications (a real receiver on 127.0.0.1; the
// product runs with ALLOW_PRIVATE_WEBHOOKS), a search saved from the dashboard, a sync that changes a matching
// Message Center post (messages v3: MC099006 retitled), and the alert arriving by e-mail and at the receiver.

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test('a saved search alerts by e-mail and webhook when a sync changes a matching item', async ({ browser, baseURL, mailbox }) => {
  const email = uniqueEmail('sally');
  const state = await signIn(browser, baseURL!, mailbox, { firstName: 'Sally', lastName: 'Saver', email });
  const context = await browser.newContext({ baseURL, storageState: state });
  const page = await context.newPage();

  const notifications = new NotificationsPage(page);
  await notifications.goto();
  const secret = await notifications.addChannel('Webhook', 'Radar receiver', `${receiver.url}/radar`);
  expect(secret).toMatch(/^whsec_/);

  const dashboard = new DashboardPage(page);
  await dashboard.goto();
  await dashboard.searchFor('Loop workspaces');
  await expect(dashboard.row(ARCHIVE_IDS.alertedMessage)).toBeVisible();
  await dashboard.saveSearch('Loop retention', ['Radar receiver']);

  const before = mailbox.messagesTo(email).length;
  const result = await syncSnapshot('messages', 'v3');
  expect(result.sync).toMatchObject({ status: 'success', changedItems: 1 });

  // The e-mail, with the change and a one-click unsubscribe link for the search.
  await expect
    .poll(
      () =>
        mailbox
          .messagesTo(email)
          .slice(before)
          .map((m) => m.subject),
      { timeout: 30_000 },
    )
    .toContain('1 new or changed item in “Loop retention”');
  const mail = mailbox
    .messagesTo(email)
    .slice(before)
    .find((m) => m.subject.includes('Loop retention'))!;
  expect(mail.text).toContain(ALERTED_MESSAGE_NEW_TITLE);
  expect(mail.text).toContain('Stop e-mails for this search:');

  // The webhook: signed with the secret shown once, the body naming the search and the item.
  await expect.poll(() => receiver.requests.length, { timeout: 30_000 }).toBe(1);
  const delivery = receiver.requests[0]!;
  const timestamp = String(delivery.headers['x-radar-timestamp']);
  expect(delivery.headers['x-radar-signature']).toBe(`v1=${crypto.createHmac('sha256', secret!).update(`${timestamp}.${delivery.body}`).digest('hex')}`);
  const payload = JSON.parse(delivery.body);
  expect(payload.sections[0].savedSearch.name).toBe('Loop retention');
  expect(payload.sections[0].items[0]).toMatchObject({ externalId: ARCHIVE_IDS.alertedMessage, change: 'changed', title: ALERTED_MESSAGE_NEW_TITLE });

  // /notifications lists the search; the channel's delivery log shows the delivery.
  await notifications.goto();
  await expect(notifications.savedSearches.getByText('Loop retention')).toBeVisible();
  const log = await notifications.openDeliveryLog('Radar receiver');
  await expect(log.getByRole('row', { name: /instant Sent 200/ })).toBeVisible();
  await log.getByRole('button', { name: 'Close' }).click();

  // Open it on the dashboard: the saved view comes back, ready to be changed and saved over.
  await notifications.savedSearches.getByRole('link', { name: 'Open Loop retention on the dashboard' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Editing saved search “Loop retention”' })).toBeVisible();
  await expect(dashboard.search).toHaveValue('Loop workspaces');
  await expect(dashboard.row(ARCHIVE_IDS.alertedMessage)).toBeVisible();
  await context.close();
});
