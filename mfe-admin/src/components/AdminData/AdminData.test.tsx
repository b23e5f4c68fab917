import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { AdminData } from './AdminData.js';

const renderWith = (answer: { data: string[] | undefined; error: unknown; isLoading: boolean }) =>
  render(
    <AdminData answer={answer} what="sync history" failedWhat="the sync history" empty={{ when: (rows) => rows.length === 0, text: 'No syncs have run yet.' }}>
      {(rows) => <p>{rows.join(', ')}</p>}
    </AdminData>,
  );

describe('AdminData', () => {
  it('says it is loading until the answer is there', () => {
    renderWith({ data: undefined, error: undefined, isLoading: true });
    expect(screen.getByText('Loading sync history...')).toBeInTheDocument();
  });

  it("shows the server's reason when loading failed, also over a stale answer", () => {
    const error = Object.assign(new Error('HTTP 500'), { info: { error: { message: 'The database is busy' } } });
    renderWith({ data: ['old'], error, isLoading: false });
    expect(screen.getByRole('alert')).toHaveTextContent(/^Could not load the sync history \(.+\)\.$/);
    expect(screen.queryByText('old')).not.toBeInTheDocument();
  });

  it('shows the empty text, else the content', () => {
    const { rerender } = renderWith({ data: [], error: undefined, isLoading: false });
    expect(screen.getByText('No syncs have run yet.')).toBeInTheDocument();
    rerender(
      <AdminData answer={{ data: ['#1', '#2'], error: undefined, isLoading: false }} what="sync history">
        {(rows) => <p>{rows.join(', ')}</p>}
      </AdminData>,
    );
    expect(screen.getByText('#1, #2')).toBeInTheDocument();
  });
});
