import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import type { ChangeHistoryEntry } from '@radar/contracts';
import { ChangeHistory } from './ChangeHistory.js';

const entry = (overrides: Partial<ChangeHistoryEntry>): ChangeHistoryEntry => ({
  id: 1,
  changeType: 'changed',
  changeDate: '2026-03-05T14:30:00',
  changedFields: [],
  previousValues: {},
  newValues: {},
  ...overrides,
});

describe('ChangeHistory', () => {
  it('says when there is no history at all', () => {
    render(<ChangeHistory entries={[]} isLoading={false} error={undefined} />);
    expect(screen.getByText('No change history available')).toBeInTheDocument();
  });

  it('says when only ignored fields changed', () => {
    render(<ChangeHistory entries={[entry({ changedFields: ['lastModified', 'modifiedDate', 'lastUpdated'] })]} isLoading={false} error={undefined} />);
    expect(screen.getByText('No significant changes recorded yet')).toBeInTheDocument();
  });

  it('shows the inline error', () => {
    render(<ChangeHistory entries={undefined} isLoading={false} error={new Error('500: boom')} />);
    expect(screen.getByText('Failed to fetch change history')).toBeInTheDocument();
  });

  it('renders badges, changed fields without ignored ones, values cut at 300 characters and the date format', () => {
    const long = 'x'.repeat(400);
    render(
      <ChangeHistory
        isLoading={false}
        error={undefined}
        entries={[
          entry({ id: 3, changeType: 'removed', changeDate: '2026-03-07T09:05:00' }),
          entry({
            id: 2,
            changedFields: ['status', 'description', 'modifiedDate'],
            previousValues: { status: 'In development', description: long },
            newValues: { status: 'Rolling out', description: 'short' },
          }),
          entry({ id: 1, changeType: 'new', changeDate: '2026-01-02T00:00:00' }),
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Change history' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]).getByText('Removed')).toBeInTheDocument();
    expect(within(items[0]).getByText('Mar 7, 2026 9:05 AM')).toBeInTheDocument();
    expect(within(items[1]).getByText('Updated')).toBeInTheDocument();
    expect(within(items[1]).getByText('Changed fields: status, description')).toBeInTheDocument();
    expect(within(items[1]).getByText('Previous: In development')).toBeInTheDocument();
    expect(within(items[1]).getByText('New: Rolling out')).toBeInTheDocument();
    expect(within(items[1]).getByText(`Previous: ${'x'.repeat(300)}...`)).toBeInTheDocument();
    expect(within(items[1]).queryByText('modifiedDate')).not.toBeInTheDocument();
    expect(within(items[2]).getByText('Created')).toBeInTheDocument();
    expect(within(items[2]).getByText('Jan 2, 2026 12:00 AM')).toBeInTheDocument();
  });
});
