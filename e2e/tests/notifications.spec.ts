import { expect, test, uniqueEmail } from '../support/fixtures.js';
import { signIn } from '../support/sign-in.js';

// /notifications end to end: the digest card's Subscribe/Unsubscribe and removing an item subscription,
// all through the real api.
test('a signed-in user toggles the weekly digest and removes an item subscription', async ({ browser, mailbox }) => {
  const baseURL = process.env.RADAR_BASE_URL ?? '';
  const state = await signIn(browser, baseURL, mailbox, { firstName: 'Nora', lastName: 'Notify', email: uniqueEmail('nora') });
  const context = await browser.newContext({ baseURL, storageState: state });
  const page = await context.newPage();
  // An item subscription made the way the dashboard dialog makes it.
  const created = await context.request.post('/api/notification-subscriptions', {
    headers: { Origin: new URL(baseURL).origin },
    data: {
      subscriptionType: 'item',
      itemId: '990002',
      itemType: 'roadmap',
      itemTitle: 'Microsoft Teams: Pin messages in channels',
      changeTypes: ['changed', 'status_change'],
      isActive: true,
    },
  });
  expect(created.ok()).toBeTruthy();

  await page.goto('/notifications');
  const digest = page.getByRole('button', { name: 'Subscribe', exact: true });
  await expect(page.getByText('Not subscribed')).toBeVisible();
  await digest.click();
  await expect(page.getByText('Successfully subscribed!')).toBeVisible();
  await expect(page.getByText('Subscribed', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
  await expect(page.getByText('Successfully unsubscribed')).toBeVisible();
  await expect(page.getByText('Not subscribed')).toBeVisible();

  await expect(page.getByText('Microsoft Teams: Pin messages in channels')).toBeVisible();
  await page.getByRole('button', { name: 'Remove subscription: Microsoft Teams: Pin messages in channels' }).click();
  await expect(page.getByText('Unsubscribed', { exact: true })).toBeVisible();
  await expect(page.getByText('No item subscriptions yet')).toBeVisible();
  await context.close();
});
