import { expect, test } from '../support/fixtures.js';
import { DashboardPage } from '../pages/DashboardPage.js';
import { setAgencyPosts } from '../support/feed-control.js';
import { AGENCY, connectAgency, removeAgency } from '../support/tenants.js';

// Relevance from the tenant's own usage (docs/product/relevance.md): an admin connects the Agency tenant, whose Graph
// answers the usage reports (1,240 of 1,512 licensed people used Exchange Online) and licenses Exchange; Sync now
// reads them, and the tenant's Exchange posts read High, with the reason, in the list, its filter and the dialog. The
// tenant is removed with its posts at the end, so the other suites see the product as before.

test('a connected tenant’s usage makes its Exchange posts High, with the reason, in the list, its filter and the dialog', async ({ adminPage }) => {
  await removeAgency(adminPage);
  await setAgencyPosts('all');
  try {
    await connectAgency(adminPage);

    // The list: each of the tenant's posts carries its chip, the reason told to screen readers.
    const board = new DashboardPage(adminPage);
    await board.goto();
    await board.searchFor(AGENCY.title);
    // The search finds the tenant's Service Health incident too, which has no relevance.
    const posts = board.rows().filter({ hasText: `${AGENCY.title} ` });
    await expect(posts).toHaveCount(2);
    for (const row of await posts.all()) {
      await expect(row.getByText('High relevance')).toBeVisible();
      // The admin sees two tenants, so the sentence names this one.
      await expect(
        row.getByText(`Relevance: High for ${AGENCY.name}. 1,240 people used Exchange Online in the last 30 days, 82 % of licensed users`),
      ).toBeAttached();
    }

    // High only: the filter goes to the URL and keeps the two posts, not the incident.
    await board.showFilters();
    await board.tick('Relevance', 'High');
    await expect.poll(() => new URL(adminPage.url()).searchParams.get('relevance')).toBe('high');
    await expect(board.table).not.toHaveAttribute('aria-busy', 'true');
    await expect(board.rows()).toHaveCount(2);

    // The dialog: the tenant's line with its level and the reason in words.
    const dialog = await board.openItem(`${AGENCY.title} 1: Exchange Online retention for government mailboxes`);
    const relevance = dialog.getByRole('region', { name: 'Relevance' });
    await expect(relevance).toContainText(AGENCY.name);
    await expect(relevance).toContainText(/1,240 people used Exchange Online in the last 30 days, 82 % of licensed users/);
  } finally {
    await removeAgency(adminPage);
  }
});
