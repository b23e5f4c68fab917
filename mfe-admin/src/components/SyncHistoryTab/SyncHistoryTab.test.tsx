import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, setViewportWidth, stubFetch } from '@radar/shared-ui/test';
import { adminSession, syncRun } from '../../test-utils/fixtures.js';
import { AnalyticsTab } from '../AnalyticsTab/index.js';
import { ChangeHistoryTab } from '../ChangeHistoryTab/index.js';
import { SyncHistoryTab } from './SyncHistoryTab.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const history = [
  syncRun({
    id: 3,
    syncSource: 'message_center',
    status: 'not_configured',
    success: false,
    itemsProcessed: 0,
    totalItems: 0,
    newItems: 0,
    changedItems: 0,
    removedItems: 0,
    errorMessage: 'Microsoft Graph is not configured',
  }),
  syncRun({ id: 2, status: 'failed', success: false, errorMessage: 'Feed answered 502' }),
  syncRun({ id: 1 }),
];

describe('SyncHistoryTab', () => {
  it('lists runs with source, status, counts and error text', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/sync-history': { body: { syncHistory: history } } });
    renderWithProviders(<SyncHistoryTab />);
    const table = await screen.findByRole('table', { name: 'Sync history' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Message Center');
    expect(rows[0]).toHaveTextContent('Not configured');
    expect(rows[0]).toHaveTextContent('Microsoft Graph is not configured');
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[2]).toHaveTextContent(/Roadmap.*v1 JSON feed.*Success.*120 \/ 120.*3.*5.*1/);
  });

  it('shows what each run read and why it ended so: RSS fallback, unchanged, interrupted', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': {
        body: {
          syncHistory: [
            syncRun({
              id: 6,
              status: 'interrupted',
              success: false,
              feedFormat: null,
              errorMessage: 'interrupted: the process stopped before the sync finished; nothing of it was applied',
            }),
            syncRun({ id: 5, status: 'unchanged', feedFormat: 'json', itemsProcessed: 0, note: 'The feed answered 304 Not Modified.' }),
            syncRun({
              id: 4,
              feedFormat: 'rss',
              note: 'JSON feed unusable (https://www.microsoft.com/releasecommunications/api/v1/m365 answered HTTP 403); the RSS feed was used',
            }),
          ],
        },
      },
    });
    renderWithProviders(<SyncHistoryTab />);
    const rows = within(await screen.findByRole('table', { name: 'Sync history' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]).toHaveTextContent(/Interrupted.*interrupted: the process stopped/);
    expect(rows[1]).toHaveTextContent(/v1 JSON feed.*Unchanged.*The feed answered 304 Not Modified\./);
    expect(rows[2]).toHaveTextContent(/RSS feed \(fallback\).*Success.*answered HTTP 403\); the RSS feed was used/);
  });

  it('shows the v2 API, a change of source once as a warning, and schema drift with field names', async () => {
    const warning = 'The roadmap is now read from the v1 JSON feed: the v2 API stopped working (the v2 API: https://example.test/v2 answered HTTP 404).';
    stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': {
        body: {
          syncHistory: [
            syncRun({ id: 8, feedFormat: 'json', warning, note: 'The v2 API was unusable (HTTP 404); the v1 JSON feed was used.' }),
            syncRun({
              id: 7,
              feedFormat: 'v2',
              drift: { unexpected: [{ field: 'aiSummary', items: 1902 }], missing: [{ field: 'moreInfoUrls', items: 1 }] },
            }),
          ],
        },
      },
    });
    renderWithProviders(<SyncHistoryTab />);
    const rows = within(await screen.findByRole('table', { name: 'Sync history' }))
      .getAllByRole('row')
      .slice(1);
    expect(within(rows[0]!).getByRole('alert')).toHaveTextContent(warning);
    expect(rows[0]).toHaveTextContent('the v1 JSON feed was used.');
    expect(rows[1]).toHaveTextContent('v2 API');
    expect(rows[1]).toHaveTextContent('Schema drift: unexpected: aiSummary (1,902 items); missing: moreInfoUrls (1 item)');
    expect(within(rows[1]!).queryByRole('alert')).toBeNull();
  });

  it('counts add up: expired posts apart from the active ones, changed expired posts said to be in no digest', async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': {
        body: {
          syncHistory: [
            syncRun({
              id: 11,
              syncSource: 'message_center',
              feedFormat: 'graph',
              itemsProcessed: 726,
              totalItems: 43,
              newItems: 726,
              changedItems: 37,
              removedItems: 0,
              expiredInFeed: 683,
              changedExpired: 37,
            }),
            syncRun({ id: 10, syncSource: 'message_center', feedFormat: 'graph', changedItems: 5, changedExpired: 2, expiredInFeed: 0 }),
          ],
        },
      },
    });
    renderWithProviders(<SyncHistoryTab />);
    const table = await screen.findByRole('table', { name: 'Sync history' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('726 / 43');
    expect(first).toHaveTextContent('43 active, 683 expired');
    expect(first).toHaveTextContent('all expired: not in digests');
    expect(second).toHaveTextContent('2 expired: not in digests');
    expect(within(table).getByRole('columnheader', { name: 'First seen' })).toHaveAttribute('title', expect.stringMatching(/seen for the first time/));
    expect(within(table).getByRole('columnheader', { name: 'Processed' })).toHaveAttribute(
      'title',
      expect.stringMatching(/live items of the source after the run/),
    );
  });

  it('on a phone each run is a card with every number and its details on screen', async () => {
    setViewportWidth(390);
    stubFetch({ ...adminSession, 'GET /api/admin/sync-history': { body: { syncHistory: [syncRun({ id: 3, note: 'The feed answered 304 Not Modified.' })] } } });
    renderWithProviders(<SyncHistoryTab />);
    const cards = await screen.findByRole('list', { name: 'Sync history' });
    const [card] = within(cards).getAllByRole('listitem');
    expect(card).toHaveTextContent(/Roadmap ·/);
    expect(within(card!).getByText('First seen').nextElementSibling).toHaveTextContent('3');
    expect(card).toHaveTextContent('The feed answered 304 Not Modified.');
    expect(screen.queryByRole('table', { name: 'Sync history' })).toBeNull();
  });

  it('offers "Apply anyway" and "Discard" on a held run and refreshes the list after a decision', async () => {
    const reason = 'The snapshot is empty: applying it would mark all 1,900 live items removed.';
    const held = { reason, itemCount: 0, activeBefore: 1900, wouldRemove: 1900, decidedAt: null, decidedBy: null, appliedSyncId: null };
    let runs = [syncRun({ id: 9, status: 'held', success: false, itemsProcessed: 0, totalItems: 1900, note: reason, held: { ...held, status: 'pending' } })];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': () => ({ body: { syncHistory: runs } }),
      'POST /api/admin/sync-history/9/discard': () => {
        runs = [syncRun({ ...runs[0], held: { ...held, status: 'discarded', decidedBy: 'admin@example.com', decidedAt: '2026-03-05T15:00:00.000Z' } })];
        return { body: { message: 'Discarded the snapshot held by sync #9', held: runs[0] } };
      },
    });
    renderWithProviders(<SyncHistoryTab />);
    const table = await screen.findByRole('table', { name: 'Sync history' });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent(/Roadmap.*JSON feed.*Held.*0 \/ 1,900/);
    expect(row).toHaveTextContent(reason);
    expect(within(row!).getByRole('button', { name: 'Apply anyway: sync #9' })).toBeEnabled();
    fireEvent.click(within(row!).getByRole('button', { name: 'Discard: sync #9' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Discard held snapshot' })).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText(/^Discarded by admin@example\.com on /)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Apply anyway: sync #9' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/api/admin/sync-history') && c.method === 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it('runs a roadmap sync: running state, the result, a toast and the refreshed history', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = [syncRun({ id: 1 })];
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': () => ({ body: { syncHistory: runs } }),
      'POST /api/roadmap/sync': () => {
        runs = [syncRun({ id: 2, trigger: 'admin', newItems: 4 }), ...runs];
        return { body: { message: 'Roadmap sync finished: 4 new, 5 changed, 1 removed, 0 restored', sync: runs[0] } };
      },
    });
    const stubbed = window.fetch;
    window.fetch = (async (...args: Parameters<typeof fetch>) => {
      if (String(args[0]).endsWith('/api/roadmap/sync')) await gate;
      return stubbed(...args);
    }) as typeof fetch;
    renderWithProviders(<SyncHistoryTab />);
    await screen.findByRole('table', { name: 'Sync history' });
    fireEvent.click(screen.getByRole('button', { name: 'Sync Roadmap' }));
    expect(await screen.findByRole('button', { name: 'Syncing Roadmap...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Sync Message Center' })).toBeEnabled();
    release();
    expect(await screen.findByText('Sync Completed')).toBeInTheDocument();
    expect(screen.getByText('Roadmap: Roadmap sync finished: 4 new, 5 changed, 1 removed, 0 restored')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Sync history' })).getAllByRole('row')).toHaveLength(3));
    expect(calls.filter((c) => c.url.endsWith('/api/admin/sync-history'))).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Sync Roadmap' })).toBeEnabled();
  });

  it('refreshes Change History and Analytics after a sync, not only the sync history', async () => {
    let synced = false;
    const { calls } = stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': { body: { syncHistory: [] } },
      'GET /api/admin/change-history': () => ({ body: { changeHistory: [], total: synced ? 4 : 0, page: 1, totalPages: 1 } }),
      'GET /api/admin/current-status-analytics': { body: { productBreakdown: [] } },
      'POST /api/roadmap/sync': () => {
        synced = true;
        return { body: { message: 'Roadmap sync finished: 4 new, 0 changed, 0 removed, 0 restored', sync: syncRun({ id: 9 }) } };
      },
    });
    // The other tabs' lists are in the cache, as after visiting them.
    renderWithProviders(
      <>
        <SyncHistoryTab />
        <ChangeHistoryTab />
        <AnalyticsTab />
      </>,
    );
    await screen.findByText('No changes have been recorded yet.');
    await screen.findByText('No products to show yet.');
    const count = (path: string) => calls.filter((c) => c.url.startsWith(path)).length;
    expect(count('/api/admin/change-history')).toBe(1);
    expect(count('/api/admin/current-status-analytics')).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Sync Roadmap' }));
    expect(await screen.findByText('Sync Completed')).toBeInTheDocument();
    await waitFor(() => expect(count('/api/admin/change-history')).toBe(2));
    expect(count('/api/admin/current-status-analytics')).toBe(2);
  });

  it("toasts 'Sync Failed' with the source's text and shows the recorded error", async () => {
    stubFetch({
      ...adminSession,
      'GET /api/admin/sync-history': { body: { syncHistory: [] } },
      'POST /api/admin/sync-message-center': {
        status: 503,
        body: { error: { name: 'NotConfiguredError', message: 'Microsoft Graph is not configured' }, sync: syncRun({ status: 'not_configured' }) },
      },
      'POST /api/roadmap/sync': { status: 409, body: { error: { name: 'ConflictError', message: 'A roadmap sync is already running' } } },
    });
    renderWithProviders(<SyncHistoryTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sync Message Center' }));
    expect(await screen.findByText('Failed to trigger Message Center sync.')).toBeInTheDocument();
    expect(screen.getByText('Sync Failed')).toBeInTheDocument();
    expect(screen.getByText('Message Center: Microsoft Graph is not configured')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sync Roadmap' }));
    expect(await screen.findByText('Failed to trigger Roadmap sync.')).toBeInTheDocument();
    expect(screen.getByText('Roadmap: A roadmap sync is already running')).toBeInTheDocument();
  });
});
