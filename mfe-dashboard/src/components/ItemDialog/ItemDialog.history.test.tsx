import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChangeHistoryEntry } from '@radar/contracts';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { anonymousRoutes, messageItem, roadmapItem } from '../../test-utils/fixtures.js';
import { ItemDialog } from './ItemDialog.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const NOW = new Date('2026-02-10T12:00:00.000Z');
const noop = () => undefined;

const entry = (id: number, changeDate: string, overrides: Partial<ChangeHistoryEntry> = {}): ChangeHistoryEntry => ({
  id,
  changeType: 'changed',
  changeDate,
  changedFields: [],
  previousValues: {},
  newValues: {},
  minor: false,
  ...overrides,
});

const HISTORY: ChangeHistoryEntry[] = [
  entry(4, '2026-02-07T00:40:00.000Z', {
    changedFields: ['status', 'releaseDate'],
    previousValues: { status: 'Rolling out', releaseDate: 'March CY2026' },
    newValues: { status: 'Launched', releaseDate: 'May CY2026' },
  }),
  entry(3, '2026-01-31T00:40:00.000Z', {
    changedFields: ['title'],
    previousValues: { title: 'Teams: recap' },
    newValues: { title: 'Teams: Recap.' },
    minor: true,
  }),
  entry(2, '2026-01-20T00:40:00.000Z', {
    changedFields: ['releaseDate', 'previewDate'],
    previousValues: { releaseDate: 'January CY2026', previewDate: '' },
    newValues: { releaseDate: 'March CY2026', previewDate: 'February CY2026' },
  }),
  entry(1, '2026-01-01T00:40:00.000Z', { changeType: 'new', newValues: { title: 'Teams: recap' } }),
];

describe('item dialog: archive, date slips, minor edits and Compare', () => {
  it('says when a roadmap item left the roadmap, and still shows its full history', async () => {
    stubFetch({
      ...anonymousRoutes,
      'GET /api/roadmap/items/412345/history': {
        body: [entry(9, '2026-02-06T00:40:00.000Z', { changeType: 'removed', changedFields: ['isRemoved'] }), ...HISTORY],
      },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    renderWithProviders(
      <ItemDialog
        item={roadmapItem({ isRemoved: true, removedAt: '2026-02-06T00:40:00.000Z' })}
        onClose={noop}
        onOpenItem={noop}
        onItemChange={noop}
        now={NOW}
      />,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Removed from the roadmap on Feb 6, 2026');
    const list = await within(dialog).findByRole('list', { name: 'Change history' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByText('Removed')).toBeInTheDocument();
  });

  it('says when a Message Center post expired: its end date when that came first', async () => {
    stubFetch({
      ...anonymousRoutes,
      'GET /api/message-center/items/MC1000001/history': {
        body: [
          entry(2, '2026-02-07T00:40:00.000Z', { changeType: 'removed', changedFields: ['isRemoved'] }),
          entry(1, '2026-01-01T00:40:00.000Z', { changeType: 'new' }),
        ],
      },
      'GET /api/message-center/items/MC1000001/linked-roadmap': { body: [] },
    });
    renderWithProviders(
      <ItemDialog
        item={messageItem({ isRemoved: true, removedAt: '2026-02-07T00:40:00.000Z', endDate: '2026-02-03T08:00:00.000Z' })}
        onClose={noop}
        onOpenItem={noop}
        onItemChange={noop}
        now={NOW}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Expired on Feb 3, 2026');
  });

  it('shows no banner for an item in its feed', () => {
    stubFetch({ ...anonymousRoutes, 'GET /api/roadmap/items/412345/history': { body: [] }, 'GET /api/roadmap/items/412345/linked-messages': { body: [] } });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sums up date slips with the dated list, and badges a cosmetic edit as minor', async () => {
    stubFetch({
      ...anonymousRoutes,
      'GET /api/roadmap/items/412345/history': { body: HISTORY },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
    });
    const item = roadmapItem({
      releaseMoves: { total: 2, gaMoves: 2, gaShiftMonths: 4, previewMoves: 0, previewShiftMonths: 0, lastMovedAt: '2026-02-07T00:40:00.000Z' },
    });
    renderWithProviders(<ItemDialog item={item} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    const slips = screen.getByRole('region', { name: 'Release Date Changes' });
    expect(within(slips).getByText('GA date moved 2 times, +4 months since first seen')).toBeInTheDocument();
    const moves = await within(slips).findByRole('list', { name: 'Release date moves' });
    // A preview date given for the first time is not a move.
    expect(
      within(moves)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Feb 7, 2026: GA date March CY2026 → May CY2026 (+2 months)', 'Jan 20, 2026: GA date January CY2026 → March CY2026 (+2 months)']);
    const history = await screen.findByRole('list', { name: 'Change history' });
    const [, minor] = within(history).getAllByRole('listitem');
    expect(within(minor!).getByText('Minor')).toBeInTheDocument();
    expect(within(history).getAllByText('Minor')).toHaveLength(1);
  });

  it('compares two versions: the last two by default, a field table, and another pair on request', async () => {
    const versions = [
      { version: 4, changeDate: '2026-02-07T00:40:00.000Z', changeType: 'changed', changedFields: ['status', 'releaseDate'], minor: false },
      { version: 3, changeDate: '2026-01-31T00:40:00.000Z', changeType: 'changed', changedFields: ['title'], minor: true },
      { version: 2, changeDate: '2026-01-20T00:40:00.000Z', changeType: 'changed', changedFields: ['releaseDate', 'previewDate'], minor: false },
      { version: 1, changeDate: '2026-01-01T00:40:00.000Z', changeType: 'new', changedFields: [], minor: false },
    ];
    const { calls } = stubFetch({
      ...anonymousRoutes,
      'GET /api/roadmap/items/412345/history': { body: HISTORY },
      'GET /api/roadmap/items/412345/linked-messages': { body: [] },
      'GET /api/roadmap/items/412345/versions': { body: versions },
      'GET /api/roadmap/items/412345/compare': (_init, url) => {
        const q = new URL(url, 'http://x').searchParams;
        const pair = { from: versions[4 - Number(q.get('from'))], to: versions[4 - Number(q.get('to'))] };
        if (q.get('from') === '2')
          return {
            body: {
              ...pair,
              fields: [{ field: 'description', before: 'Old text.', after: 'All new.' }],
              wordDiff: {
                field: 'description',
                gaveUp: true,
                parts: [
                  { type: 'delete', text: 'Old text.' },
                  { type: 'insert', text: 'All new.' },
                ],
              },
            },
          };
        if (q.get('from') === '3')
          return {
            body: {
              ...pair,
              fields: [
                { field: 'status', before: 'Rolling out', after: 'Launched' },
                { field: 'releaseDate', before: 'March CY2026', after: 'May CY2026' },
              ],
              wordDiff: null,
            },
          };
        return {
          body: {
            ...pair,
            fields: [{ field: 'description', before: 'Recap for all.', after: 'Recap for everyone.' }],
            wordDiff: {
              field: 'description',
              parts: [
                { type: 'equal', text: 'Recap for ' },
                { type: 'delete', text: 'all' },
                { type: 'insert', text: 'everyone' },
                { type: 'equal', text: '.' },
              ],
            },
          },
        };
      },
    });
    renderWithProviders(<ItemDialog item={roadmapItem()} onClose={noop} onOpenItem={noop} onItemChange={noop} now={NOW} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Compare versions' }));
    const compare = await screen.findByRole('region', { name: 'Compare versions' });
    const table = await within(compare).findByRole('table', { name: 'Changed fields' });
    expect(calls.some((c) => c.url === '/api/roadmap/items/412345/compare?from=3&to=4')).toBe(true);
    const status = within(table).getByRole('row', { name: /Status/ });
    expect(
      within(status)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Rolling out', 'Launched']);
    expect(within(table).getByRole('columnheader', { name: 'Before (version 3)' })).toBeInTheDocument();

    fireEvent.mouseDown(within(compare).getByRole('combobox', { name: 'From version' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Version 1 ·/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/roadmap/items/412345/compare?from=1&to=4')).toBe(true));
    const diff = await within(compare).findByRole('region', { name: 'Description: word-level changes' });
    // Insertions and deletions are marked by underline / strike-through elements and by screen-reader text.
    expect(diff.querySelector('del')).toHaveTextContent('[deleted: all end deleted]');
    expect(diff.querySelector('ins')).toHaveTextContent('[inserted: everyone end inserted]');
    expect(within(compare).getByRole('row', { name: /Description/ })).toHaveTextContent('Changed: see the word-level comparison below');
    expect(within(compare).queryByText(/differ too much/)).not.toBeInTheDocument();

    // Texts too different to diff word by word within the server's bound: said so.
    fireEvent.mouseDown(within(compare).getByRole('combobox', { name: 'From version' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Version 2 ·/ }));
    expect(await within(compare).findByText(/differ too much to compare word by word/)).toBeInTheDocument();
  });
});
