import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { ItemBadges, ItemStatusBadge } from './ItemBadges.js';

const NOW = new Date('2026-02-10T12:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

describe('ItemBadges', () => {
  it('shows both New and Updated on a message published and updated within the 7 days', () => {
    render(<ItemBadges item={{ source: 'messages', messageId: 'MC1', publishedDate: daysAgo(5), lastUpdatedDate: daysAgo(1), isFeatured: true }} now={NOW} />);
    expect(screen.getByText('Featured')).toBeInTheDocument();
    expect(screen.getByText('New')).toBeInTheDocument();
    expect(screen.getByText('Updated')).toBeInTheDocument();
  });

  it('shows only Updated for an older roadmap item modified this week, and nothing for an untouched one', () => {
    const { rerender, container } = render(<ItemBadges item={{ source: 'roadmap', createdDate: daysAgo(30), modifiedDate: daysAgo(2) }} now={NOW} />);
    expect(screen.queryByText('New')).not.toBeInTheDocument();
    expect(screen.getByText('Updated')).toBeInTheDocument();
    rerender(<ItemBadges item={{ source: 'roadmap', createdDate: daysAgo(30), modifiedDate: daysAgo(20) }} now={NOW} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('names the status in text; colour only adds to it', () => {
    render(<ItemStatusBadge status="Cancelled" />);
    expect(screen.getByText('Cancelled').closest('[data-status-color]')).toHaveAttribute('data-status-color', 'red');
  });

  it('gives Launched its own badge: solid grey, where a status we do not know is outlined', () => {
    render(
      <>
        <ItemStatusBadge status="Launched" />
        <ItemStatusBadge status="Preview" />
      </>,
    );
    const launched = screen.getByText('Launched').closest('[data-status-color]');
    const unknown = screen.getByText('Preview').closest('[data-status-color]');
    expect(launched).toHaveAttribute('data-status-color', 'grey');
    expect(unknown).toHaveAttribute('data-status-color', 'default');
    expect(launched).toHaveClass('MuiChip-filled');
    expect(unknown).toHaveClass('MuiChip-outlined');
  });
});
