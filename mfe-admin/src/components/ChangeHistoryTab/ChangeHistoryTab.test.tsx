import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, setViewportWidth, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { formatChangeValue } from './change-values.js';
import { ChangeHistoryTab } from './ChangeHistoryTab.js';

const entry = {
  id: 1,
  changeType: 'changed',
  changeDate: '2026-03-05T14:30:00.000Z',
  changedFields: ['status', 'modifiedDate', 'tags'],
  previousValues: { status: 'In development', modifiedDate: 'a', tags: ['Web'] },
  newValues: { status: 'Rolling out', modifiedDate: 'b', tags: ['Web', 'Desktop'] },
  source: 'roadmap',
  roadmapItem: { itemId: '412345', title: 'Teams recap' },
  messageCenterItem: null,
};

describe('ChangeHistoryTab', () => {
  it('formats values: lists joined, empty marked, long text cut at 300', () => {
    expect(formatChangeValue(['a', 'b'])).toBe('a, b');
    expect(formatChangeValue(null)).toBe('(empty)');
    expect(formatChangeValue('x'.repeat(400))).toHaveLength(303);
  });

  it('shows changed fields with previous → new values and links the item', async () => {
    stubFetch({ ...adminSession, 'GET /api/admin/change-history': { body: { changeHistory: [entry], total: 1, page: 1, totalPages: 1 } } });
    renderWithProviders(
      <Routes>
        <Route path="/" element={<ChangeHistoryTab />} />
        <Route path="/dashboard" element={<p>dashboard with item</p>} />
      </Routes>,
    );
    const table = await screen.findByRole('table', { name: 'Change history' });
    const row = within(table).getAllByRole('row')[1];
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Item', 'Change', 'Changed fields', 'What changed']);
    expect(row).toHaveTextContent('status, tags');
    expect(row).not.toHaveTextContent('modifiedDate');
    expect(row).toHaveTextContent('status: In development → Rolling out');
    expect(row).toHaveTextContent('tags: Web → Web, Desktop');
    expect(within(row).getByText('Teams recap')).toBeInTheDocument();
    expect(within(row).queryByText('Minor')).not.toBeInTheDocument();
    fireEvent.click(within(row).getByRole('link', { name: '412345' }));
    expect(await screen.findByText('dashboard with item')).toBeInTheDocument();
  });

  it('badges a cosmetic change Minor, as the item dialog does', async () => {
    const cosmetic = { ...entry, id: 2, changedFields: ['title'], previousValues: { title: 'Teams recap' }, newValues: { title: 'Teams Recap' }, minor: true };
    stubFetch({ ...adminSession, 'GET /api/admin/change-history': { body: { changeHistory: [cosmetic, entry], total: 2, page: 1, totalPages: 1 } } });
    renderWithProviders(<ChangeHistoryTab />);
    const table = await screen.findByRole('table', { name: 'Change history' });
    const [, minorRow, otherRow] = within(table).getAllByRole('row');
    expect(within(minorRow!).getByText('Minor').closest('[title]')).toHaveAttribute('title', 'Only whitespace, punctuation or letter case changed');
    expect(within(otherRow!).queryByText('Minor')).not.toBeInTheDocument();
  });

  it('shows a prose change as a word diff of its text, never raw HTML', async () => {
    const body = {
      ...entry,
      id: 3,
      source: 'messages',
      roadmapItem: null,
      messageCenterItem: { messageId: 'MC1001', title: 'Planner update' },
      changedFields: ['bodyContent', 'endDate'],
      previousValues: { bodyContent: '<p>Rollout&nbsp;begins in March.</p>', endDate: '2026-05-01T00:00:00.000Z' },
      newValues: { bodyContent: '<p>Rollout&nbsp;begins in <a href="x">April</a>.</p>', endDate: '2026-06-01T00:00:00.000Z' },
      textDiffs: [
        {
          field: 'bodyContent',
          parts: [
            { type: 'equal', text: '… rollout begins in ' },
            { type: 'delete', text: 'March' },
            { type: 'insert', text: 'April' },
            { type: 'equal', text: '.' },
          ],
        },
      ],
    };
    const markupOnly = { ...body, id: 4, changedFields: ['bodyContent'], textDiffs: [{ field: 'bodyContent', parts: [] }] };
    stubFetch({ ...adminSession, 'GET /api/admin/change-history': { body: { changeHistory: [body, markupOnly], total: 2, page: 1, totalPages: 1 } } });
    renderWithProviders(<ChangeHistoryTab />);
    const table = await screen.findByRole('table', { name: 'Change history' });
    const [, row, markupRow] = within(table).getAllByRole('row');
    expect(within(row!).getByText('March').closest('del')).not.toBeNull();
    expect(within(row!).getByText('April').closest('ins')).not.toBeNull();
    expect(row).toHaveTextContent('[deleted: March end deleted]');
    expect(row).not.toHaveTextContent(/<p>|&nbsp;|href/);
    expect(row).toHaveTextContent(/endDate: .+ → .+/);
    expect(markupRow).toHaveTextContent('bodyContent: only the formatting changed, not the text');
  });

  it('shows a card per change on a phone, with the item link as its title', async () => {
    setViewportWidth(390);
    stubFetch({ ...adminSession, 'GET /api/admin/change-history': { body: { changeHistory: [entry], total: 1, page: 1, totalPages: 1 } } });
    renderWithProviders(<ChangeHistoryTab />);
    const cards = await screen.findByRole('list', { name: 'Change history' });
    const [card] = within(cards).getAllByRole('listitem');
    expect(within(card!).getByRole('link', { name: '412345' })).toHaveAttribute('href', '/dashboard?roadmap=412345');
    expect(card).toHaveTextContent('status: In development → Rolling out');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
