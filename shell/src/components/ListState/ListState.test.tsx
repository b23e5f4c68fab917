import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { ListState } from './ListState.js';

const labels = { loadingLabel: 'Loading saved searches', errorText: 'Saved searches could not be loaded', emptyText: 'No saved searches yet' };
const list = <ul aria-label="Your saved searches" />;

describe('ListState', () => {
  it('shows a labelled skeleton while loading, and nothing else', () => {
    render(
      <ListState isLoading failed={false} isEmpty={false} {...labels}>
        {list}
      </ListState>,
    );
    expect(screen.getByLabelText('Loading saved searches')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('announces a failed load as an alert', () => {
    render(
      <ListState isLoading={false} failed isEmpty {...labels}>
        {list}
      </ListState>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Saved searches could not be loaded');
    expect(screen.queryByText('No saved searches yet')).not.toBeInTheDocument();
  });

  it('says so when there is nothing to list, and renders the list otherwise', () => {
    const { rerender } = render(
      <ListState isLoading={false} failed={false} isEmpty {...labels}>
        {list}
      </ListState>,
    );
    expect(screen.getByText('No saved searches yet')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    rerender(
      <ListState isLoading={false} failed={false} isEmpty={false} {...labels}>
        {list}
      </ListState>,
    );
    expect(screen.getByRole('list', { name: 'Your saved searches' })).toBeInTheDocument();
  });
});
