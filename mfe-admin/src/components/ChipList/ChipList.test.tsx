import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { ChipList } from './ChipList.js';

describe('ChipList', () => {
  it('shows at most 2 chips, then +N naming the rest', () => {
    render(<ChipList labels={['Teams', 'Exchange', 'SharePoint', 'OneDrive']} />);
    expect(screen.getByText('Teams')).toBeInTheDocument();
    expect(screen.getByText('Exchange')).toBeInTheDocument();
    expect(screen.queryByText('SharePoint')).not.toBeInTheDocument();
    expect(screen.getByText('+2')).toBeInTheDocument();
    expect(screen.getByLabelText('2 more: SharePoint, OneDrive')).toBeInTheDocument();
  });

  it('shows no +N for 2 or fewer, drops blanks and repeats, and marks an empty list', () => {
    const { rerender } = render(<ChipList labels={['Teams', ' ', 'Teams', 'Exchange']} />);
    expect(screen.queryByText(/^\+/)).not.toBeInTheDocument();
    rerender(<ChipList labels={[]} emptyText="None" />);
    expect(screen.getByText('None')).toBeInTheDocument();
  });
});
