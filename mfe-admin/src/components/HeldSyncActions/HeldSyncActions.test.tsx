import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncHistoryRecord } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession, syncRun } from '../../test-utils/fixtures.js';
import { HeldSyncActions } from './HeldSyncActions.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const REASON = 'The snapshot would remove 950 of 1,900 live items (50%), more than SYNC_MAX_REMOVED_PERCENT (10%).';
const heldRun = (held: Partial<NonNullable<SyncHistoryRecord['held']>> = {}) =>
  syncRun({
    id: 7,
    status: 'held',
    success: false,
    itemsProcessed: 950,
    totalItems: 1900,
    note: REASON,
    held: {
      status: 'pending',
      reason: REASON,
      itemCount: 950,
      activeBefore: 1900,
      wouldRemove: 950,
      decidedAt: null,
      decidedBy: null,
      appliedSyncId: null,
      ...held,
    },
  }) as SyncHistoryRecord & { held: NonNullable<SyncHistoryRecord['held']> };

describe('HeldSyncActions', () => {
  it('asks before "Apply anyway", naming what it removes, then applies and reports the result', async () => {
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': { body: { syncHistory: [] } },
      'POST /api/admin/sync-history/7/apply': {
        body: {
          message: 'Applied the held Roadmap snapshot: 0 new, 0 changed, 950 removed, 0 restored',
          sync: syncRun({ id: 8 }),
          held: heldRun({ status: 'applied' }),
        },
      },
    });
    renderWithProviders(<HeldSyncActions run={heldRun()} />, { withAuthDialog: false });
    expect(screen.getByText(REASON)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Apply anyway: sync #7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply held snapshot' });
    expect(dialog).toHaveTextContent(
      'Apply the Roadmap snapshot held by sync #7 exactly as it was fetched? It has 950 items and will mark 950 of the 1,900 live items removed; followers of those items get mail.',
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply anyway' }));
    expect(await screen.findByText('Snapshot Applied')).toBeInTheDocument();
    expect(screen.getByText('Applied the held Roadmap snapshot: 0 new, 0 changed, 950 removed, 0 restored')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/admin/sync-history/7/apply']);
  });

  it('cancelling the confirmation sends nothing', async () => {
    const { calls } = stubFetch({ ...adminSession });
    renderWithProviders(<HeldSyncActions run={heldRun()} />, { withAuthDialog: false });
    await userEvent.click(screen.getByRole('button', { name: 'Discard: sync #7' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Discard held snapshot' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('discards after confirmation', async () => {
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': { body: { syncHistory: [] } },
      'POST /api/admin/sync-history/7/discard': { body: { message: 'Discarded the snapshot held by sync #7', held: heldRun({ status: 'discarded' }) } },
    });
    renderWithProviders(<HeldSyncActions run={heldRun()} />, { withAuthDialog: false });
    await userEvent.click(screen.getByRole('button', { name: 'Discard: sync #7' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard held snapshot' });
    expect(dialog).toHaveTextContent('Nothing of it is applied; the next scheduled sync fetches the feed again.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Snapshot Discarded')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/admin/sync-history/7/discard']);
  });

  it("shows the server's reason when the decision is refused", async () => {
    stubFetch({
      ...adminSession,
      'POST /api/admin/sync-history/7/apply': {
        status: 409,
        body: { error: { name: 'ConflictError', message: 'A newer Roadmap snapshot was applied or held after sync #7; it can no longer be applied' } },
      },
    });
    renderWithProviders(<HeldSyncActions run={heldRun()} />, { withAuthDialog: false });
    await userEvent.click(screen.getByRole('button', { name: 'Apply anyway: sync #7' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Apply anyway' }));
    expect(await screen.findByText('Apply Failed')).toBeInTheDocument();
    expect(
      screen.getByText('Failed to apply the snapshot of sync #7: A newer Roadmap snapshot was applied or held after sync #7; it can no longer be applied'),
    ).toBeInTheDocument();
  });

  it.each([
    [
      { status: 'applied' as const, decidedBy: 'admin@example.com', decidedAt: '2026-03-05T15:00:00.000Z', appliedSyncId: 9 },
      /^Applied anyway by admin@example\.com on .+ \(sync #9\)\.$/,
    ],
    [{ status: 'discarded' as const, decidedBy: 'ops@example.com', decidedAt: '2026-03-05T15:00:00.000Z' }, /^Discarded by ops@example\.com on .+\.$/],
    [{ status: 'superseded' as const }, /^Superseded: a newer snapshot of this source was applied or held/],
  ])('once decided (%o) shows the decision and no buttons', (held, text) => {
    stubFetch({ ...adminSession });
    renderWithProviders(<HeldSyncActions run={heldRun(held)} />, { withAuthDialog: false });
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
