import { afterEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { makeUser } from '@radar/shared-ui/test';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { listCalls, listOf, renderDashboard } from '../../test-utils/render-dashboard.js';

// Whole page with MUI; on a busy 2-core machine the default 5 s is too tight.
jestApi.setTimeout(30_000);
afterEach(() => useToastStore.setState({ toasts: [] }));

const signedInRoutes = { 'GET /api/auth/session-user': { body: { user: makeUser() } } };

describe('dashboard: archive, date slips and since your last visit', () => {
  it('includes removed and expired items on request, badged with their date, and keeps the choice in the URL', async () => {
    const expired = messageItem({
      messageId: 'MC42',
      title: 'An expired post',
      isRemoved: true,
      removedAt: '2026-02-07T00:40:00.000Z',
      endDate: '2026-02-03T08:00:00.000Z',
    });
    const removed = roadmapItem({ itemId: '4242', title: 'A removed item', isRemoved: true, removedAt: '2026-02-06T00:40:00.000Z' });
    const { calls } = renderDashboard({
      'GET /api/unified/items': (_init, url) => (url.includes('includeRemoved=true') ? listOf([roadmapItem(), expired, removed]) : listOf([roadmapItem()])),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const sidebar = await screen.findByRole('complementary', { name: 'Filters' });
    const toggle = within(sidebar).getByRole('switch', { name: 'Include removed and expired' });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('includeRemoved')).toBe('true'));
    expect(await screen.findByText('Expired Feb 3, 2026')).toBeInTheDocument();
    expect(screen.getByText('Removed Feb 6, 2026')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/?includeRemoved=true');
    // Guests do not get "Since my last visit".
    expect(within(sidebar).queryByRole('checkbox', { name: 'Since my last visit' })).not.toBeInTheDocument();
  });

  it('filters by a recent release date move and sorts by most slipped', async () => {
    const { calls } = renderDashboard({
      'GET /api/unified/items': listOf([
        roadmapItem({ releaseMoves: { total: 3, gaMoves: 2, gaShiftMonths: 5, previewMoves: 1, previewShiftMonths: 1, lastMovedAt: null } }),
      ]),
    });
    expect(await screen.findByText('Release date moved 3 times')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const moved = within(await screen.findByRole('complementary', { name: 'Filters' })).getByRole('group', { name: 'Release date moved' });
    fireEvent.click(within(moved).getByRole('checkbox', { name: 'Last 30 Days' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('releaseMoved')).toBe('30days'));
    fireEvent.click(within(moved).getByRole('checkbox', { name: 'Last 7 Days' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('releaseMoved')).toBe('7days'));
    expect(within(moved).getByRole('checkbox', { name: 'Last 30 Days' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: /^Sort by/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Most Slipped (Release Date Moves)' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sortField')).toBe('releaseMoves'));
    expect(screen.getByTestId('location')).toHaveTextContent('sortField=releaseMoves&sortDirection=desc&releaseMoved=7days');
  });

  it('tells a returning user what changed since their last visit and lists exactly that', async () => {
    const { calls } = renderDashboard({
      ...signedInRoutes,
      'POST /api/dashboard/visit': { body: { lastVisitAt: '2026-02-05T09:30:00.000Z', changesSinceLastVisit: 3 } },
      'GET /api/unified/items': (_init, url) =>
        url.includes('sinceLastVisit=true') ? listOf([roadmapItem({ title: 'Changed since' })], 3) : listOf([roadmapItem()], 120),
    });
    const banner = await screen.findByText(/3 changes since your last visit/);
    expect(banner).toHaveTextContent('(Feb 5, 2026');
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/dashboard/visit')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show changes' }));
    expect(await screen.findByText('Changed since')).toBeInTheDocument();
    expect(listCalls(calls).at(-1)?.get('sinceLastVisit')).toBe('true');
    expect(screen.getByTestId('location')).toHaveTextContent('/?sinceLastVisit=true');
    // The same choice in the sidebar, combinable with the others.
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const sidebar = await screen.findByRole('complementary', { name: 'Filters' });
    expect(within(sidebar).getByRole('checkbox', { name: 'Since my last visit' })).toBeChecked();
    fireEvent.click(within(within(sidebar).getByRole('group', { name: 'Changed items' })).getByRole('checkbox', { name: 'Last 7 Days' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.getAll('changeTypes')).toEqual(['changed_7days']));
    expect(listCalls(calls).at(-1)?.get('sinceLastVisit')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Show all items' }));
    await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent('sinceLastVisit'));
  });

  it('opened with ?sinceLastVisit=true, the list waits for the visit to be recorded', async () => {
    const { calls } = renderDashboard(
      {
        ...signedInRoutes,
        'POST /api/dashboard/visit': { body: { lastVisitAt: '2026-02-05T09:30:00.000Z', changesSinceLastVisit: 1 } },
        'GET /api/unified/items': listOf([roadmapItem({ title: 'Changed since' })], 1),
      },
      '/?sinceLastVisit=true',
    );
    expect(await screen.findByText('Changed since')).toBeInTheDocument();
    const firstList = calls.findIndex((c) => c.url.startsWith('/api/unified/items'));
    const visit = calls.findIndex((c) => c.url === '/api/dashboard/visit');
    expect(visit).toBeGreaterThanOrEqual(0);
    expect(firstList).toBeGreaterThan(visit);
    expect(listCalls(calls).every((q) => q.get('sinceLastVisit') === 'true')).toBe(true);
  });

  it('drops sinceLastVisit from a guest URL and shows no banner', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()]) }, '/?sinceLastVisit=true');
    expect(await screen.findByText('Microsoft Teams: new meeting recap')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(listCalls(calls).some((q) => q.has('sinceLastVisit'))).toBe(false);
    expect(calls.some((c) => c.url === '/api/dashboard/visit')).toBe(false);
    expect(screen.queryByText(/since your last visit/)).not.toBeInTheDocument();
  });
});
