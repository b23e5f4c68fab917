import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { withFirstCommit } from '@radar/shared-ui/test';
import { healthItem, messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { receivedByText } from '../../pages/DashboardPage/useReceivedText.js';
import { COLUMN_WIDTHS, FIRST_COMMIT_ROWS, FOLDS, ItemTable, TRIAGE_FOLDS } from './ItemTable.js';
import { presentRow } from './row-presentation.js';

const NOW = new Date('2026-02-10T12:00:00.000Z');
const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

const table = (items: Parameters<typeof ItemTable>[0]['items'], extra: Partial<Parameters<typeof ItemTable>[0]> = {}) => (
  <ItemTable
    items={items}
    isLoading={false}
    sortField="createdDate"
    sortDirection="desc"
    onToggleLastModifiedSort={() => undefined}
    onToggleTimingSort={() => undefined}
    onOpen={() => undefined}
    now={NOW}
    {...extra}
  />
);
const renderTable = (items: Parameters<typeof ItemTable>[0]['items'], extra: Partial<Parameters<typeof ItemTable>[0]> = {}) => render(table(items, extra));

const rowOf = (id: string) => document.querySelector(`[data-item-id="${id}"]`) as HTMLElement;
/** A row's cell of one column (its content may also be under the title, for when the column folds). */
const cellOf = (row: HTMLElement, key: string) => row.querySelector(`[data-col="${key}"]`) as HTMLElement;

describe('row presentation at fixed dates', () => {
  it('roadmap: New (created within 7 days) is tinted green; Updated (older, modified within 7 days) blue', () => {
    const fresh = roadmapItem({ itemId: '1', createdDate: days(2), modifiedDate: days(2) });
    const updated = roadmapItem({ itemId: '2', createdDate: days(30), modifiedDate: days(1) });
    const old = roadmapItem({ itemId: '3', createdDate: days(30), modifiedDate: days(20) });
    expect(presentRow(fresh, NOW).tint).toBe('new');
    expect(presentRow(updated, NOW).tint).toBe('updated');
    expect(presentRow(old, NOW).tint).toBeNull();
    renderTable([fresh, updated, old]);
    expect(within(rowOf('roadmap-1')).getByText('New')).toBeInTheDocument();
    expect(rowOf('roadmap-1')).toHaveAttribute('data-tint', 'new');
    expect(within(rowOf('roadmap-2')).getByText('Updated')).toBeInTheDocument();
    expect(rowOf('roadmap-2')).toHaveAttribute('data-tint', 'updated');
    expect(within(rowOf('roadmap-3')).queryByText(/^(New|Updated)$/)).not.toBeInTheDocument();
  });

  it('message: Updated needs an update at least 1 hour after publication within 7 days', () => {
    const published = days(20);
    const tooClose = messageItem({ messageId: 'MC1', publishedDate: days(3), lastUpdatedDate: new Date(Date.parse(days(3)) + 30 * 60_000).toISOString() });
    const updated = messageItem({ messageId: 'MC2', publishedDate: published, lastUpdatedDate: days(1) });
    expect(presentRow(tooClose, NOW)).toMatchObject({ isNew: true, isUpdated: false });
    expect(presentRow(updated, NOW)).toMatchObject({ isNew: false, isUpdated: true });
  });

  it('message: New and Updated both show when a new message was updated; the tint follows New', () => {
    const both = messageItem({ messageId: 'MC3', publishedDate: days(5), lastUpdatedDate: days(1) });
    expect(presentRow(both, NOW)).toMatchObject({ isNew: true, isUpdated: true, tint: 'new' });
    renderTable([both]);
    expect(within(rowOf('messages-MC3')).getByText('New')).toBeInTheDocument();
    expect(within(rowOf('messages-MC3')).getByText('Updated')).toBeInTheDocument();
    expect(rowOf('messages-MC3')).toHaveAttribute('data-tint', 'new');
  });

  it('shows the provider id, source badge, status badge colour, release date text and Featured', () => {
    renderTable([
      roadmapItem({ itemId: '10', status: 'Rolling out', releaseDate: 'March CY2026', isFeatured: true, createdDate: days(40), modifiedDate: days(40) }),
      roadmapItem({ itemId: '11', status: 'Cancelled', releaseDate: null, createdDate: days(40), modifiedDate: days(40) }),
    ]);
    const first = rowOf('roadmap-10');
    expect(within(cellOf(first, 'id')).getByText('10')).toBeInTheDocument();
    expect(within(cellOf(first, 'source')).getByText('Roadmap')).toBeInTheDocument();
    expect(within(first).getByText('Featured')).toBeInTheDocument();
    expect(within(cellOf(first, 'release')).getByText('Mar 2026')).toBeInTheDocument();
    expect(within(cellOf(first, 'tags')).getByText('Rolling out').closest('[data-status-color]')).toHaveAttribute('data-status-color', 'green');
    const second = rowOf('roadmap-11');
    expect(within(cellOf(second, 'release')).getByText('TBD')).toBeInTheDocument();
    expect(within(cellOf(second, 'tags')).getByText('Cancelled').closest('[data-status-color]')).toHaveAttribute('data-status-color', 'red');
  });

  it('message rows: tags without New/Updated message, impact first, 2 plus +N; services first 3 then +N more; 200-char preview', () => {
    renderTable([
      messageItem({
        messageId: 'MC9',
        tags: ['New message', 'Retirement', 'Updated message', 'Feature update', 'Admin impact'],
        userImpact: true,
        service: ['Exchange Online', 'Microsoft Teams', 'SharePoint Online', 'OneDrive', 'Planner'],
        summary: 'y'.repeat(250),
        publishedDate: days(40),
        lastUpdatedDate: days(40),
      }),
    ]);
    const row = rowOf('messages-MC9');
    expect(within(cellOf(row, 'source')).getByText('Message Center')).toBeInTheDocument();
    expect(within(cellOf(row, 'tags')).getByText('USER IMPACT')).toBeInTheDocument();
    expect(within(cellOf(row, 'tags')).getByText('ADMIN IMPACT')).toBeInTheDocument();
    expect(within(cellOf(row, 'tags')).getByText('+2')).toBeInTheDocument();
    expect(within(row).queryByText('New message')).not.toBeInTheDocument();
    expect(within(cellOf(row, 'product')).getByText('Exchange Online, Microsoft Teams, SharePoint Online, +2 more')).toBeInTheDocument();
    expect(within(row).getByText(`${'y'.repeat(200)}...`)).toBeInTheDocument();
  });

  it('shows 5 skeleton rows while loading and the empty state when nothing matches', () => {
    const { rerender } = renderTable([], { isLoading: true });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    rerender(table([]));
    expect(screen.getByText('No items found matching your current filters.')).toBeInTheDocument();
  });

  it('has the columns of docs/product/dashboard.md; the Last Modified header toggles the sort; a row opens its item', () => {
    const onToggle = jest.fn();
    const onOpen = jest.fn();
    const item = roadmapItem({ itemId: '77' });
    renderTable([item], { onToggleLastModifiedSort: onToggle, onOpen });
    for (const name of ['ID', 'Title', 'Product/Service', 'Source', 'Release Date', 'Last Modified', 'Tag(s)']) {
      expect(screen.getByRole('columnheader', { name })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Last Modified' }));
    expect(onToggle).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: item.title }));
    expect(onOpen).toHaveBeenCalledWith(item);
  });
});

describe('archive and date-slip badges', () => {
  it('badges removed roadmap items and expired posts with their date, in words', () => {
    const removed = roadmapItem({ itemId: '11', isRemoved: true, removedAt: '2026-02-06T00:40:00.000Z' });
    const expiredEarly = messageItem({ messageId: 'MC11', isRemoved: true, removedAt: '2026-02-07T00:40:00.000Z', endDate: '2026-02-03T08:00:00.000Z' });
    const withdrawn = messageItem({ messageId: 'MC12', isRemoved: true, removedAt: '2026-02-07T00:40:00.000Z', endDate: '2026-06-30T07:00:00.000Z' });
    const active = roadmapItem({ itemId: '13' });
    renderTable([removed, expiredEarly, withdrawn, active]);
    expect(within(rowOf('roadmap-11')).getByText('Removed Feb 6, 2026')).toBeInTheDocument();
    expect(within(rowOf('messages-MC11')).getByText('Expired Feb 3, 2026')).toBeInTheDocument();
    expect(within(rowOf('messages-MC12')).getByText('Expired Feb 7, 2026')).toBeInTheDocument();
    expect(within(rowOf('roadmap-13')).queryByText(/Removed|Expired/)).not.toBeInTheDocument();
  });

  it('shows how often a roadmap item’s release date moved, for sighted and screen-reader users', () => {
    const moved = roadmapItem({
      itemId: '21',
      releaseMoves: { total: 1, gaMoves: 1, gaShiftMonths: 2, previewMoves: 0, previewShiftMonths: 0, lastMovedAt: null },
    });
    const still = roadmapItem({
      itemId: '22',
      releaseMoves: { total: 0, gaMoves: 0, gaShiftMonths: 0, previewMoves: 0, previewShiftMonths: 0, lastMovedAt: null },
    });
    renderTable([moved, still]);
    expect(within(rowOf('roadmap-21')).getByText('Date moved 1×')).toHaveAttribute('aria-hidden', 'true');
    expect(within(rowOf('roadmap-21')).getByText('Release date moved 1 time')).toBeInTheDocument();
    expect(within(rowOf('roadmap-22')).queryByText(/moved/)).not.toBeInTheDocument();
  });
});

describe('first commit', () => {
  const page = Array.from({ length: 50 }, (_, i) => roadmapItem({ itemId: String(1000 + i), createdDate: days(40), modifiedDate: days(40) }));
  const ids = () => [...document.querySelectorAll('tbody tr[data-item-id]')].map((row) => row.getAttribute('data-item-id'));

  it(`commits the first ${FIRST_COMMIT_ROWS} rows first, then every row of the page in order`, async () => {
    await withFirstCommit(table(page), async () => {
      expect(ids()).toEqual(page.slice(0, FIRST_COMMIT_ROWS).map((item) => item.id));
      await waitFor(() => expect(ids()).toEqual(page.map((item) => item.id)));
    });
  });

  it('renders every row of the page (as tests and later pages see it)', () => {
    renderTable(page);
    expect(ids()).toHaveLength(50);
  });
});

describe('Timing of Change', () => {
  const windows = [
    { ring: 'Targeted' as const, label: 'late July 2026 to early August 2026', start: '2026-07-21', end: '2026-08-10' },
    { ring: 'general' as const, label: 'mid-August 2026', start: '2026-08-11', end: '2026-08-20' },
  ];

  it("shows a post's first window with its ring, a roadmap item's GA month, a dash for neither; the header sorts", () => {
    const post = messageItem({ messageId: 'MC1', timing: windows, timingStart: '2026-07-21', timingEnd: '2026-08-20' });
    const ga = roadmapItem({ itemId: '7', releaseDate: 'March CY2026', timingStart: '2026-03-01', timingEnd: '2026-03-31' });
    const none = messageItem({ messageId: 'MC2', timing: [], timingStart: null });
    expect(presentRow(post, NOW)).toMatchObject({
      timingText: 'late Jul 2026 · Targeted Release',
      timingDetail: 'Targeted Release: late July 2026 to early August 2026; General availability: mid-August 2026',
    });
    expect(presentRow(ga, NOW).timingText).toBe('Mar 2026');
    expect(presentRow(none, NOW).timingText).toBe('—');
    const onToggleTimingSort = jest.fn();
    renderTable([post, ga, none], { onToggleTimingSort });
    expect(within(rowOf('messages-MC1')).getByText('late Jul 2026 · Targeted Release')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Timing of Change' }));
    expect(onToggleTimingSort).toHaveBeenCalled();
  });
});

describe('fitting the box', () => {
  it('folds the least important columns into the Title cell by container queries, each with its content there', () => {
    const post = messageItem({ messageId: 'MC9', service: ['Microsoft Teams'], tags: ['Retirement', 'Admin impact'] });
    renderTable([post]);
    const header = screen.getAllByRole('columnheader');
    expect(header.map((cell) => cell.getAttribute('data-col'))).toEqual(['id', 'title', 'product', 'source', 'release', 'timing', 'modified', 'tags']);
    const row = rowOf('messages-MC9');
    const title = row.querySelector('[data-col="title"]') as HTMLElement;
    // Each foldable column has its twin under the title, hidden until its column folds.
    expect(FOLDS.map((fold) => fold.key)).toEqual(['tags', 'product', 'modified', 'timing']);
    expect(FOLDS.map((fold) => fold.below)).toEqual([...FOLDS.map((fold) => fold.below)].sort((a, b) => b - a));
    // Above each fold the columns still shown and the title's minimum fit the box: the table is never squeezed there.
    const fits = (folds: typeof FOLDS, columns: string[]) =>
      folds.map((fold, i) => {
        const shown = columns.filter((key) => !folds.slice(0, i).some((f) => f.key === key));
        const titleMin = folds.slice(0, i).some((f) => f.narrowTitle) ? 200 : 280;
        return fold.below >= shown.reduce((sum, key) => sum + COLUMN_WIDTHS[key], titleMin);
      });
    const guestColumns = ['id', 'product', 'source', 'release', 'timing', 'modified', 'tags'];
    expect(fits(FOLDS, guestColumns)).toEqual(FOLDS.map(() => true));
    expect(fits(TRIAGE_FOLDS, ['select', 'state', 'owner', 'due', ...guestColumns])).toEqual(TRIAGE_FOLDS.map(() => true));
    expect(title.querySelector('[data-fold="product"]')).toHaveTextContent('Microsoft Teams');
    expect(title.querySelector('[data-fold="modified"]')).toHaveTextContent(/^Last modified: /);
    expect(title.querySelector('[data-fold="tags"]')).toHaveTextContent('Retirement');
    expect(title.querySelector('[data-fold="product"]')).not.toBeVisible();
    // The container the queries measure is the table's box.
    const container = screen.getByRole('table', { name: 'Items' }).parentElement as HTMLElement;
    expect(getComputedStyle(container).getPropertyValue('container-type')).toBe('inline-size');
  });
});

describe('Service Health rows and the tenants that received an item', () => {
  it('shows an issue with its id, service and status in words, and says how many of the visible tenants received it', () => {
    const issue = healthItem();
    expect(presentRow(issue, NOW)).toMatchObject({ providerId: 'EX1000001', productText: 'Exchange Online', removal: null });
    const texts: Record<string, string | null> = { 'health-EX1000001': receivedByText([1, 4], 3), 'messages-MC1': receivedByText([1], 1) };
    renderTable([issue, messageItem({ messageId: 'MC1' })], { receivedText: (item) => texts[item.id] ?? null });
    const row = rowOf('health-EX1000001');
    expect(within(cellOf(row, 'source')).getByText('Service Health')).toBeInTheDocument();
    expect(within(cellOf(row, 'source')).getByText('Received by 2 of 3 tenants')).toBeInTheDocument();
    expect(within(cellOf(row, 'tags')).getByText('Service restored')).toBeInTheDocument();
    // One visible tenant: every post is its own, so nothing is said.
    expect(within(cellOf(rowOf('messages-MC1'), 'source')).queryByText(/Received by/)).not.toBeInTheDocument();
    expect(receivedByText(undefined, 5)).toBeNull();
  });
});

describe('relevance chip', () => {
  const TEAMS = '1,240 people used Teams in the last 30 days, 82 % of licensed users';
  const relevance = {
    'roadmap-31': { level: 'high' as const, tenantId: 3, reason: TEAMS },
    'roadmap-32': { level: 'low' as const, tenantId: 3, reason: 'Nobody used Viva Engage in the last 30 days (0 of 300 licensed users)' },
    'roadmap-33': { level: 'unknown' as const, tenantId: 3, reason: 'No usage report covers Microsoft Entra' },
  };
  const items = ['31', '32', '33', '34'].map((itemId) => roadmapItem({ itemId }));

  it('says the level in words and, to a screen reader, the level and its reason', () => {
    renderTable(items, { relevance });
    const chip = within(rowOf('roadmap-31')).getByText('High relevance');
    expect(chip).toHaveAttribute('aria-hidden', 'true');
    expect(within(rowOf('roadmap-31')).getByText(`Relevance: High. ${TEAMS}`)).toBeInTheDocument();
    expect(within(rowOf('roadmap-32')).getByText('Low relevance')).toBeInTheDocument();
  });

  it('gives the reason as the chip’s tooltip', () => {
    renderTable(items, { relevance });
    expect(rowOf('roadmap-31').querySelector('[data-relevance="high"]')).toHaveAttribute('title', TEAMS);
  });

  it('shows nothing for Unknown or an item without relevance', () => {
    renderTable(items, { relevance });
    expect(rowOf('roadmap-33').querySelector('[data-relevance]')).toBeNull();
    expect(rowOf('roadmap-34').querySelector('[data-relevance]')).toBeNull();
  });

  it('names the tenant when the reader sees several', () => {
    renderTable(items, { relevance, relevanceTenant: (id) => (id === 3 ? 'Contoso' : null) });
    expect(within(rowOf('roadmap-31')).getByText(`Relevance: High for Contoso. ${TEAMS}`)).toBeInTheDocument();
    expect(rowOf('roadmap-31').querySelector('[data-relevance="high"]')).toHaveAttribute('title', `Contoso: ${TEAMS}`);
  });

  it('shows no chip without the relevance map (guests)', () => {
    renderTable(items);
    expect(document.querySelector('[data-relevance]')).toBeNull();
  });
});

describe('row selection and the rows’ own markup (moderators and admins)', () => {
  const items = ['41', '42', '43'].map((itemId) => roadmapItem({ itemId, createdDate: days(40), modifiedDate: days(40) }));
  const triage = {
    'roadmap-41': [
      {
        tenantId: null,
        state: 'done' as const,
        ownerId: null,
        ownerName: null,
        dueDate: null,
        priority: 'medium' as const,
        closedReason: 'before_tracking' as const,
        overdueFrom: null,
      },
    ],
  };

  it('gives each row a native checkbox named by its id; ticking it selects the row without opening it', () => {
    const onSelect = jest.fn();
    const onOpen = jest.fn();
    renderTable(items, { selected: new Set(), onSelect, onOpen });
    const box = screen.getByRole('checkbox', { name: 'Select 42' });
    expect(box.tagName).toBe('INPUT');
    fireEvent.click(box);
    expect(onSelect).toHaveBeenCalledWith(['roadmap-42'], true);
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('shows the header checkbox mixed while some rows of the page are chosen, ticked when all are', () => {
    const onSelect = jest.fn();
    const { rerender } = renderTable(items, { selected: new Set(['roadmap-41']), onSelect });
    const all = screen.getByRole('checkbox', { name: 'Select all rows on this page' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);
    expect(all).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select 41' })).toBeChecked();
    expect(rowOf('roadmap-41')).toHaveAttribute('data-selected');
    expect(rowOf('roadmap-42')).not.toHaveAttribute('data-selected');
    fireEvent.click(all);
    expect(onSelect).toHaveBeenCalledWith(['roadmap-41', 'roadmap-42', 'roadmap-43'], true);
    rerender(table(items, { selected: new Set(items.map((item) => item.id)), onSelect }));
    expect(all.indeterminate).toBe(false);
    expect(all).toBeChecked();
  });

  it('draws every cell of a row with one class and no MUI component names, the triage cells free to wrap', () => {
    renderTable(items, { selected: new Set(), onSelect: () => undefined, triage });
    const row = rowOf('roadmap-41');
    expect(row.classList).toHaveLength(1);
    const cells = [...row.children] as HTMLElement[];
    expect(cells.map((cell) => cell.getAttribute('data-col'))).toEqual([
      'select',
      'id',
      'title',
      'state',
      'owner',
      'due',
      'product',
      'source',
      'release',
      'timing',
      'modified',
      'tags',
    ]);
    expect(new Set(cells.map((cell) => cell.className)).size).toBe(1);
    expect(row.querySelector('[data-col="select"] input')?.className).not.toMatch(/Mui/);
    expect(cellOf(row, 'state')).toHaveTextContent('Closed before tracking');
    // A column's width holds whatever the rows say: a long state wraps rather than widening its column.
    expect(getComputedStyle(cellOf(row, 'state')).whiteSpace).not.toBe('nowrap');
    expect(getComputedStyle(cellOf(row, 'state')).overflowWrap).toBe('anywhere');
    expect(getComputedStyle(cellOf(row, 'id')).whiteSpace).toBe('nowrap');
  });
});
