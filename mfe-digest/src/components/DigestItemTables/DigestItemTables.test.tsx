import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { UnifiedItem } from '@radar/contracts';
import { messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { IncidentDigestTable, MessageDigestTable, RoadmapDigestTable, servicesOf } from './index.js';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

const renderIn = (ui: React.ReactElement) =>
  render(
    <MemoryRouter initialEntries={['/weekly-digest']}>
      {ui}
      <LocationProbe />
    </MemoryRouter>,
  );

const headersOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell');

describe('RoadmapDigestTable', () => {
  const items: UnifiedItem[] = [
    roadmapItem({ itemId: '1001', title: 'In dev item', status: 'In development', product: 'Microsoft Teams', releaseDate: 'March CY2026' }),
    roadmapItem({ itemId: '1002', title: 'Rolling item', status: 'Rolling out', product: 'Outlook', releaseDate: null }),
    roadmapItem({ itemId: '1003', title: 'Launched item', status: 'Launched' }),
    roadmapItem({ itemId: '1004', title: 'Cancelled item', status: 'Cancelled' }),
  ];

  it('shows ID, title, product, a status badge coloured per the shared rule, and the release date', () => {
    renderIn(<RoadmapDigestTable title="New Roadmap Items" items={items} />);
    const table = screen.getByRole('table', { name: 'New Roadmap Items' });
    expect(screen.getByRole('heading', { name: 'New Roadmap Items (4)' })).toBeInTheDocument();
    expect(headersOf(table)).toEqual(['ID', 'Title', 'Product', 'Status', 'Release Date']);
    const [first, second, third, fourth] = within(table).getAllByRole('row').slice(1);
    expect(cellsOf(first).map((c) => c.textContent)).toEqual(['1001', 'In dev item', 'Microsoft Teams', 'In development', 'Mar 2026']);
    expect(cellsOf(second).map((c) => c.textContent)).toEqual(['1002', 'Rolling item', 'Outlook', 'Rolling out', 'TBD']);
    const colourOf = (row: HTMLElement) => row.querySelector('[data-status-color]')?.getAttribute('data-status-color');
    expect([first, second, third, fourth].map(colourOf)).toEqual(['blue', 'green', 'grey', 'red']);
  });

  it('links each row to the roadmap item on the dashboard', () => {
    renderIn(<RoadmapDigestTable title="New Roadmap Items" items={items} />);
    const table = screen.getByRole('table', { name: 'New Roadmap Items' });
    expect(within(table).getByRole('link', { name: 'In dev item' })).toHaveAttribute('href', '/dashboard?roadmap=1001');
    fireEvent.click(screen.getByRole('cell', { name: '1002' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?roadmap=1002');
  });

  it('says so when a table has no items', () => {
    renderIn(<RoadmapDigestTable title="Updated Roadmap Items" items={[]} />);
    expect(screen.getByRole('heading', { name: 'Updated Roadmap Items (0)' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Updated Roadmap Items' })).getByText('None in the past 7 days.')).toBeInTheDocument();
  });

  it('lists the same items as cards (the table is for wider screens), each card with its columns as labels and values', () => {
    renderIn(<RoadmapDigestTable title="New Roadmap Items" items={items} />);
    const cards = screen.getByRole('list', { name: 'New Roadmap Items' });
    const [first] = within(cards).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'In dev item' })).toHaveAttribute('href', '/dashboard?roadmap=1001');
    expect(within(first!).getByText('1001')).toBeInTheDocument();
    const labels = within(first!)
      .getAllByRole('term')
      .map((term) => term.textContent);
    const headers = within(screen.getByRole('table', { name: 'New Roadmap Items' }))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(labels).toEqual(headers.slice(2));
    // CSS shows one of the two: cards below md, the table from md up.
    expect(getComputedStyle(cards).display).toBe('flex');
    expect(cards.parentElement!.innerHTML).toMatch(/@media|MuiTableContainer/);
  });
});

describe('MessageDigestTable', () => {
  const post = messageItem({
    messageId: 'MC900001',
    title: 'Exchange change',
    service: ['Exchange Online', 'Microsoft Teams', 'SharePoint Online', 'OneDrive'],
    tags: ['New message', 'Retirement', 'Feature update', 'Admin impact'],
    adminImpact: true,
    publishedDate: '2026-03-03T10:00:00.000Z',
    lastUpdatedDate: '2026-03-05T10:00:00.000Z',
  });

  it('shows services and tags as 2 chips plus +N, and the published and updated dates', () => {
    renderIn(<MessageDigestTable title="Updated Message Center Posts" items={[post]} />);
    const table = screen.getByRole('table', { name: 'Updated Message Center Posts' });
    expect(headersOf(table)).toEqual(['ID', 'Title', 'Services', 'Tags', 'Published', 'Last Updated']);
    const [id, title, services, tags, published, updated] = cellsOf(within(table).getAllByRole('row')[1]);
    expect(id).toHaveTextContent('MC900001');
    expect(title).toHaveTextContent('Exchange change');
    expect(services).toHaveTextContent(/^Exchange OnlineMicrosoft Teams\+2$/);
    expect(within(services).getByLabelText('+2 more services: SharePoint Online, OneDrive')).toBeInTheDocument();
    // The shared tag rule: impact tags first, 'New message' hidden.
    expect(tags).toHaveTextContent(/^ADMIN IMPACTRetirement\+1$/);
    expect(within(tags).getByLabelText('+1 more tag: Feature update')).toBeInTheDocument();
    expect(published).toHaveTextContent('Mar 3, 2026');
    expect(updated).toHaveTextContent('Mar 5, 2026');
  });

  it('links each row to the message on the dashboard', () => {
    renderIn(<MessageDigestTable title="New Message Center Posts" items={[post]} />);
    const table = screen.getByRole('table', { name: 'New Message Center Posts' });
    expect(within(table).getByRole('link', { name: 'Exchange change' })).toHaveAttribute('href', '/dashboard?message=MC900001');
    fireEvent.click(within(table).getByRole('link', { name: 'Exchange change' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?message=MC900001');
  });

  it('reads services from the list or the comma-separated text', () => {
    expect(servicesOf({ service: ['A', ' B '], services: null })).toEqual(['A', 'B']);
    expect(servicesOf({ service: null, services: 'Exchange Online, Teams,' })).toEqual(['Exchange Online', 'Teams']);
    expect(servicesOf({ service: [], services: null })).toEqual([]);
  });
});

describe('IncidentDigestTable', () => {
  it('shows each incident with its service and status in words, linked to its dialog', () => {
    const incident = messageItem({
      id: 'health-EX1000001',
      source: 'health',
      messageId: null,
      issueId: 'EX1000001',
      isResolved: true,
      title: 'Users may be unable to access email',
      status: 'serviceRestored',
      service: ['Exchange Online'],
      tags: [],
    });
    renderIn(<IncidentDigestTable title="Incidents This Week" items={[incident]} />);
    const table = screen.getByRole('table', { name: 'Incidents This Week' });
    expect(headersOf(table)).toEqual(['ID', 'Title', 'Service', 'Status', 'Started', 'Last Updated']);
    expect(within(table).getByText('Service restored')).toBeInTheDocument();
    expect(within(table).getByText('Exchange Online')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Users may be unable to access email' })).toHaveAttribute('href', '/dashboard?health=EX1000001');
  });
});
