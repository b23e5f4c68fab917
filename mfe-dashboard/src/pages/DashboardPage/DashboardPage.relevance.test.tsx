import { afterEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { makeUser } from '@radar/shared-ui/test';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { listCalls, listOf, renderDashboard } from '../../test-utils/render-dashboard.js';

// Whole page with MUI; on a busy 2-core machine the default 5 s is too tight.
jestApi.setTimeout(30_000);
afterEach(() => useToastStore.setState({ toasts: [] }));

const signedIn = {
  'GET /api/auth/session-user': { body: { user: makeUser() } },
  'POST /api/dashboard/visit': { body: { lastVisitAt: null, changesSinceLastVisit: 0 } },
};
const TEAMS = '1,240 people used Teams in the last 30 days, 82 % of licensed users';
/** A list answer with the page's relevance map, as the api gives it to signed-in callers. */
const withRelevance = () => ({
  body: {
    items: [roadmapItem(), messageItem()],
    total: 2,
    totalPages: 1,
    relevance: { 'roadmap-412345': { level: 'high', tenantId: 3, reason: TEAMS } },
  },
});
const openFilters = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
  return await screen.findByRole('complementary', { name: 'Filters' });
};

describe('dashboard: relevance for signed-in users', () => {
  it('shows a row’s relevance chip with its reason', async () => {
    renderDashboard({ ...signedIn, 'GET /api/unified/items': withRelevance() });
    expect(await screen.findByText('High relevance')).toBeInTheDocument();
    expect(screen.getByText(`Relevance: High. ${TEAMS}`)).toBeInTheDocument();
  });

  it('filters by relevance: High goes to the list request and the URL', async () => {
    const { calls } = renderDashboard({ ...signedIn, 'GET /api/unified/items': withRelevance() });
    await screen.findByText('High relevance');
    const sidebar = await openFilters();
    fireEvent.click(await within(sidebar).findByRole('button', { name: 'Relevance' }));
    fireEvent.click(within(within(sidebar).getByRole('group', { name: 'Relevance' })).getByRole('checkbox', { name: 'High' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.getAll('relevance')).toEqual(['high']));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?relevance=high$/);
  });

  it('sorts by “Relevant to us first”', async () => {
    const { calls } = renderDashboard({ ...signedIn, 'GET /api/unified/items': withRelevance() });
    await screen.findByText('High relevance');
    fireEvent.click(screen.getByRole('button', { name: /^Sort by/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Relevant to us first' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sortField')).toBe('relevance'));
    expect(listCalls(calls).at(-1)?.get('sortDirection')).toBe('desc');
    expect(screen.getByTestId('location')).toHaveTextContent('sortField=relevance&sortDirection=desc');
  });

  it('opened with ?relevance=high, lists by it from the first request', async () => {
    const { calls } = renderDashboard({ ...signedIn, 'GET /api/unified/items': withRelevance() }, '/?relevance=high');
    expect(await screen.findByText('High relevance')).toBeInTheDocument();
    expect(listCalls(calls).length).toBeGreaterThan(0);
    expect(listCalls(calls).every((q) => q.get('relevance') === 'high')).toBe(true);
  });
});

describe('dashboard: relevance for guests', () => {
  it('offers no Relevance filter and no relevance sort', async () => {
    renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()]) });
    await screen.findByText('Microsoft Teams: new meeting recap');
    const sidebar = await openFilters();
    await within(sidebar).findByRole('button', { name: 'Products' });
    expect(within(sidebar).queryByRole('button', { name: 'Relevance' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /^Sort by/ }));
    expect(screen.queryByRole('menuitem', { name: 'Relevant to us first' })).not.toBeInTheDocument();
  });

  it('shows no chip, whatever the answer holds', async () => {
    renderDashboard({ 'GET /api/unified/items': withRelevance() });
    await screen.findByText('Microsoft Teams: new meeting recap');
    expect(screen.queryByText('High relevance')).not.toBeInTheDocument();
    expect(screen.queryByText(/^Relevance: /)).not.toBeInTheDocument();
  });

  it('drops the relevance filter and sort from a guest’s URL and never asks for them', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()]) }, '/?relevance=high&sortField=relevance');
    expect(await screen.findByText('Microsoft Teams: new meeting recap')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(listCalls(calls).some((q) => q.has('relevance') || q.get('sortField') === 'relevance')).toBe(false);
  });
});
