import { afterEach, describe, expect, it, jest as jestApi } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { listCalls, listOf, renderDashboard } from '../../test-utils/render-dashboard.js';

// These render the whole page with MUI; on a busy 2-core machine the default 5 s is too tight.
jestApi.setTimeout(20_000);

afterEach(() => useToastStore.setState({ toasts: [] }));

describe('DashboardPage', () => {
  it('shows the header with Export, the list, the pagination footer, and pages', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem(), messageItem()], 120, 3) });
    expect(screen.getByRole('button', { name: 'Export' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    expect(await screen.findByText('Microsoft Teams: new meeting recap')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3 (120 total items)')).toBeInTheDocument();
    expect(listCalls(calls)[0].toString()).toBe('sortField=createdDate&sortDirection=desc&page=1&limit=50');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('page')).toBe('2'));
  });

  it('shows the empty state', async () => {
    renderDashboard({ 'GET /api/unified/items': listOf([]) });
    expect(await screen.findByText('No items found matching your current filters.')).toBeInTheDocument();
    expect(screen.queryByText(/total items/)).not.toBeInTheDocument();
  });

  it('toggles the sidebar, applies the sources rule, shows counts and Clear All', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()]) });
    expect(screen.queryByRole('complementary', { name: 'Filters' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const sidebar = await screen.findByRole('complementary', { name: 'Filters' });
    expect(screen.getByRole('button', { name: 'Hide Filters' })).toBeInTheDocument();
    expect(within(sidebar).getByRole('button', { name: 'Data Source' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(sidebar).getByRole('button', { name: 'Recent Activity' })).toHaveAttribute('aria-expanded', 'true');
    for (const name of ['Products', 'Roadmap Status', 'Message Center Tags', 'Cloud Instance']) {
      expect(within(sidebar).getByRole('button', { name })).toHaveAttribute('aria-expanded', 'false');
    }
    expect(within(sidebar).getByRole('checkbox', { name: 'Roadmap (Future Features)' })).toBeChecked();
    expect(within(sidebar).getByRole('checkbox', { name: 'Message Center (Current Updates)' })).toBeChecked();
    expect(within(sidebar).queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();

    fireEvent.click(within(sidebar).getByRole('button', { name: 'Roadmap Status' }));
    fireEvent.click(await within(sidebar).findByRole('checkbox', { name: /Launched/ }));
    expect(within(sidebar).getByText('882')).toBeInTheDocument();
    expect(within(sidebar).getByRole('checkbox', { name: 'Message Center (Current Updates)' })).not.toBeChecked();
    await waitFor(() => expect(listCalls(calls).at(-1)?.getAll('roadmapStatuses')).toEqual(['Launched']));
    expect(listCalls(calls).at(-1)?.getAll('sources')).toEqual(['roadmap']);

    fireEvent.click(within(sidebar).getByRole('button', { name: 'Message Center Tags' }));
    fireEvent.click(await within(sidebar).findByRole('checkbox', { name: /Retirement/ }));
    expect(within(sidebar).getByRole('checkbox', { name: 'Message Center (Current Updates)' })).toBeChecked();
    expect(within(sidebar).getByRole('checkbox', { name: 'Roadmap (Future Features)' })).toBeChecked();

    const newGroup = within(sidebar).getByRole('group', { name: 'New items' });
    fireEvent.click(within(newGroup).getByRole('checkbox', { name: 'Last 1 Day' }));
    fireEvent.click(within(newGroup).getByRole('checkbox', { name: 'Last 7 Days' }));
    expect(within(newGroup).getByRole('checkbox', { name: 'Last 1 Day' })).not.toBeChecked();
    await waitFor(() => expect(listCalls(calls).at(-1)?.getAll('changeTypes')).toEqual(['new_7days']));

    fireEvent.click(within(sidebar).getByRole('button', { name: 'Clear All' }));
    expect(within(sidebar).queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();
    // The unfiltered query was fetched already and is served from the cache, so check the controls.
    expect(within(sidebar).getByRole('checkbox', { name: /Launched/ })).not.toBeChecked();
    expect(within(sidebar).getByRole('checkbox', { name: /Retirement/ })).not.toBeChecked();
    expect(within(newGroup).getByRole('checkbox', { name: 'Last 7 Days' })).not.toBeChecked();
    expect(within(sidebar).getByRole('checkbox', { name: 'Roadmap (Future Features)' })).toBeChecked();
    expect(within(sidebar).getByRole('checkbox', { name: 'Message Center (Current Updates)' })).toBeChecked();
  });

  it('offers a Tenant filter once the caller may see more than one tenant, and sends it with the list query', async () => {
    const { calls } = renderDashboard({
      'GET /api/unified/items': listOf([messageItem()]),
      'GET /api/tenants': {
        body: {
          tenants: [
            { id: 3, name: 'Contoso' },
            { id: 7, name: 'Fabrikam' },
          ],
          total: 2,
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const sidebar = await screen.findByRole('complementary', { name: 'Filters' });
    fireEvent.click(await within(sidebar).findByRole('button', { name: 'Tenant' }));
    fireEvent.click(await within(sidebar).findByRole('checkbox', { name: 'Fabrikam' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.getAll('tenants')).toEqual(['7']));
    fireEvent.click(within(sidebar).getByRole('button', { name: 'Clear All' }));
    expect(within(sidebar).getByRole('checkbox', { name: 'Fabrikam' })).not.toBeChecked();
  });

  it('keeps the view in the URL both ways: Back and Forward restore filters, search, sort and page', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()], 120, 3) }, '/?search=teams');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('search')).toBe('teams'));
    expect(screen.getByRole('searchbox')).toHaveValue('teams');
    fireEvent.click(screen.getByRole('button', { name: 'Show Filters' }));
    const sidebar = await screen.findByRole('complementary', { name: 'Filters' });
    fireEvent.click(within(sidebar).getByRole('button', { name: 'Roadmap Status' }));
    fireEvent.click(await within(sidebar).findByRole('checkbox', { name: /Launched/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/?search=teams&sources=roadmap&roadmapStatuses=Launched'));
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/[?&]page=2&.*roadmapStatuses=Launched/));
    expect(listCalls(calls).at(-1)?.get('page')).toBe('2');

    fireEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/roadmapStatuses=Launched$/));
    // Page 1 of that view is in the cache: the footer says which page is shown.
    await waitFor(() => expect(within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('status')).toHaveTextContent(/^Page 1 of 3/));
    fireEvent.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?search=teams$/));
    expect(within(sidebar).getByRole('checkbox', { name: /Launched/ })).not.toBeChecked();
    expect(screen.getByRole('searchbox')).toHaveValue('teams');
    fireEvent.click(screen.getByRole('button', { name: 'Browser forward' }));
    await waitFor(() => expect(within(sidebar).getByRole('checkbox', { name: /Launched/ })).toBeChecked());
    expect(screen.getByTestId('location')).toHaveTextContent(/roadmapStatuses=Launched$/);
  });

  it('debounces the search and sorts from the menu and the Last Modified header', async () => {
    const { calls } = renderDashboard({ 'GET /api/unified/items': listOf([roadmapItem()]) });
    fireEvent.change(screen.getByPlaceholderText('Search items...'), { target: { value: 'copilot' } });
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('search')).toBe('copilot'));
    fireEvent.click(screen.getByRole('button', { name: /^Sort by/ }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Modified Date (Oldest)' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sortDirection')).toBe('asc'));
    expect(listCalls(calls).at(-1)?.get('sortField')).toBe('modifiedDate');
    fireEvent.click(await screen.findByRole('button', { name: 'Last Modified' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sortDirection')).toBe('desc'));
  });

  it('keeps a dialog opened while a typed search is still pending open when the search applies', async () => {
    const { calls } = renderDashboard({
      // The typed search finds other items: the open one stays open all the same.
      'GET /api/unified/items': (_init, url) => (url.includes('search=recap') ? listOf([messageItem()]) : listOf([roadmapItem()])),
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    const row = await screen.findByRole('button', { name: 'Microsoft Teams: new meeting recap' });
    fireEvent.change(screen.getByPlaceholderText('Search items...'), { target: { value: 'recap' } });
    fireEvent.click(row);
    expect(await screen.findByRole('dialog', { name: 'Microsoft Teams: new meeting recap' })).toBeInTheDocument();
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('search')).toBe('recap'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/?roadmap=412345&search=recap'));
    expect(screen.getByRole('dialog', { name: 'Microsoft Teams: new meeting recap' })).toBeInTheDocument();
  });

  it('opens a deep-linked roadmap item; closing removes the parameter', async () => {
    const item = roadmapItem();
    const { calls } = renderDashboard(
      {
        'GET /api/unified/items': (_init, url) =>
          url.includes('search=412345') ? listOf([roadmapItem({ itemId: '4123450', title: 'Other' }), item]) : listOf([]),
        'GET /api/roadmap/items/412345/history': { body: [] },
        'GET /api/roadmap/items/412345/linked-messages': { body: [] },
      },
      '/?roadmap=412345',
    );
    expect(await screen.findByRole('dialog', { name: item.title })).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/unified/items?search=412345&sources=roadmap&limit=50')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens a related message from a roadmap dialog and Back returns to the roadmap item', async () => {
    const related = messageItem({ messageId: 'MC777', title: 'Related announcement' });
    renderDashboard({
      'GET /api/unified/items': listOf([roadmapItem()]),
      'GET /api/roadmap/items/412345/history': { body: [] },
      'GET /api/roadmap/items/412345/linked-messages': { body: [related] },
      'GET /api/message-center/items/MC777/history': { body: [] },
      'GET /api/message-center/items/MC777/linked-roadmap': { body: [roadmapItem()] },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Microsoft Teams: new meeting recap' }));
    const roadmapDialog = await screen.findByRole('dialog', { name: 'Microsoft Teams: new meeting recap' });
    fireEvent.click(await within(roadmapDialog).findByRole('button', { name: 'View Related announcement' }));
    expect(await screen.findByRole('dialog', { name: 'Related announcement' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/?message=MC777');
  });

  it.each([
    ['no results', listOf([]), 'Roadmap Item Not Found', 'No search results for roadmap ID: 999'],
    ['no exact match', listOf([roadmapItem({ itemId: '9990' })]), 'Roadmap Item Not Found', 'Could not find exact match for roadmap item: 999'],
    ['a failure', { status: 500, body: { error: { name: 'Error', message: 'boom' } } }, 'Error', 'Failed to fetch roadmap item details'],
  ])('toasts on %s for a deep link and removes the parameter', async (_case, answer, title, description) => {
    renderDashboard({ 'GET /api/unified/items': (_init, url) => (url.includes('search=') ? answer : listOf([])) }, '/?roadmap=999');
    expect(await screen.findByText(description)).toBeInTheDocument();
    expect(screen.getByText(title)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/), { timeout: 5000 }); // the toast, then the URL: slow on a loaded machine
  });

  it('uses the message wording for message deep links', async () => {
    renderDashboard({ 'GET /api/unified/items': (_init, url) => (url.includes('search=') ? listOf([]) : listOf([])) }, '/?message=MC404');
    expect(await screen.findByText('No search results for message ID: MC404')).toBeInTheDocument();
  });
});
