import { describe, expect, it, jest } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DeliveryLogDialog, type DeliveryLogDialogProps } from './DeliveryLogDialog.js';

interface Attempt {
  id: number;
  at: string;
  outcome: string;
}

const texts = { loading: 'Loading calls...', failed: (e: unknown) => `Could not load the log (${String(e)}).`, empty: 'No calls yet' };
const renderLog = (log: DeliveryLogDialogProps<Attempt>['log']) => {
  const onClose = jest.fn();
  render(
    <DeliveryLogDialog
      title="Delivery log: Change board"
      log={log}
      columns={[
        { header: 'When', cell: (a) => a.at },
        { header: 'Outcome', cell: (a) => a.outcome },
      ]}
      rowKey={(a) => a.id}
      texts={texts}
      tableLabel="Calls"
      onClose={onClose}
    />,
  );
  return onClose;
};

describe('DeliveryLogDialog', () => {
  it('is named by its title and lists each attempt under its headers; Close closes it', async () => {
    const onClose = renderLog({ rows: [{ id: 1, at: '2 June, 09:00', outcome: 'sent' }], error: undefined });
    const dialog = screen.getByRole('dialog', { name: 'Delivery log: Change board' });
    const table = within(dialog).getByRole('table', { name: 'Calls' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Outcome']);
    expect(within(table).getByRole('row', { name: '2 June, 09:00 sent' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("says in the caller's words that the log is loading", () => {
    renderLog({ rows: undefined, error: undefined });
    expect(screen.getByText('Loading calls...')).toBeInTheDocument();
  });

  it('shows a failed load as an alert, also over rows loaded before', () => {
    renderLog({ rows: [{ id: 1, at: 'then', outcome: 'sent' }], error: 'HTTP 500' });
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the log (HTTP 500).');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when there is no attempt yet', () => {
    renderLog({ rows: [], error: undefined });
    expect(screen.getByText('No calls yet')).toBeInTheDocument();
  });
});
