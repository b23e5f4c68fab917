import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import { formatChangeValue } from './change-values.js';
import { ChangeHistoryTab } from './ChangeHistoryTab.js';

jest.setTimeout(30_000);

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
});
