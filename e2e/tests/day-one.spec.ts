import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { ItemDialogPage } from '../pages/ItemDialogPage.js';
import { setAgencyPosts } from '../support/feed-control.js';
import { AGENCY, connectAgency, removeAgency } from '../support/tenants.js';

// Day one and the week after (docs/product/triage.md, "The starting line"): an admin connects a tenant and meets a
// calm queue (its live posts; its incident was resolved before triage started, so it is closed before tracking); a
// post given to a colleague stays in their queue when Microsoft expires it, badged, until they close it; the tenant's
// change health moves with it. The tenant is removed with its posts at the end, so the other suites see the product as
// before.

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };

async function health(page: Page, tenant: number) {
  return (await (await page.request.get(`/api/triage/health?tenant=${tenant}`)).json()) as { score: number; open: number };
}

test('a connected tenant starts calm; an expired post stays in its owner’s queue until closed, and the score moves', async ({ adminPage, userPage }) => {
  await removeAgency(adminPage);
  await setAgencyPosts('all');
  try {
    // Connect the tenant and sync it.
    const tenant = await connectAgency(adminPage);

    // A calm queue: the two live posts are open; the incident, resolved before the line, is closed before tracking.
    expect(await health(adminPage, tenant)).toMatchObject({ open: 2 });
    const incident = (await (await adminPage.request.get(`/api/triage/service-health/${AGENCY.issueId}?tenant=${tenant}`)).json()) as {
      state: string;
      closedReason: string | null;
    };
    expect(incident).toMatchObject({ state: 'done', closedReason: 'before_tracking' });
    const board = new DashboardPage(adminPage);
    await board.goto('?triage=unassigned');
    await board.searchFor(AGENCY.title);
    await expect(board.rows()).toHaveCount(2);

    // The admin gives the user the tenant and one post.
    const user = (await (await userPage.request.get('/api/auth/session-user')).json()) as { user: { id: number } };
    const granted = await adminPage.request.put(`/api/admin/app-users/${user.user.id}/tenants`, { data: { tenantIds: [tenant] }, headers: SAME_ORIGIN });
    expect(granted.ok()).toBe(true);
    const [post] = AGENCY.postIds;
    const given = await adminPage.request.put(`/api/triage/message-center/${post}?tenant=${tenant}`, {
      data: { ownerId: user.user.id },
      headers: SAME_ORIGIN,
    });
    expect(given.ok()).toBe(true);
    const before = await health(adminPage, tenant);

    // Microsoft expires the post: the tenant's Message Center lists it no more.
    await setAgencyPosts(post!);
    expect((await adminPage.request.post(`/api/admin/tenants/${tenant}/sync`, { headers: SAME_ORIGIN })).ok()).toBe(true);

    // It stays in the user's queue, badged, and the dialog closes it in one click.
    const queue = new DashboardPage(userPage);
    await queue.goto('?triage=mine');
    await queue.searchFor(post!);
    const row = queue.row(post!);
    await expect(row).toBeVisible();
    await expect(row).toContainText('Expired');
    const item = new ItemDialogPage(await queue.openItem(`${AGENCY.title} 1: Exchange Online retention for government mailboxes`));
    await expect(item.triage.region).toContainText('This post has expired');
    await item.triage.closeAsNoLongerApplies();
    await item.triage.expectState('Not relevant');
    await item.dismiss();
    await expect(queue.row(post!)).toHaveCount(0);

    // One fewer open record: the tenant's score moved (what is left is unowned).
    const after = await health(adminPage, tenant);
    expect(after.open).toBe(before.open - 1);
    expect(after.score).not.toBe(before.score);
  } finally {
    await setAgencyPosts('all');
    await removeAgency(adminPage);
  }
});
