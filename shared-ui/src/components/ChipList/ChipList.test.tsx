import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { ChipList } from './ChipList.js';

describe('ChipList', () => {
  it('shows at most 2 chips, then +N whose name starts with what it shows and lists the rest', () => {
    render(<ChipList values={['Teams', 'Exchange', 'SharePoint', 'OneDrive']} noun="services" />);
    expect(screen.getByText('Teams')).toBeInTheDocument();
    expect(screen.getByText('Exchange')).toBeInTheDocument();
    expect(screen.queryByText('SharePoint')).not.toBeInTheDocument();
    expect(screen.getByText('+2')).toBeInTheDocument();
    expect(screen.getByLabelText('+2 more services: SharePoint, OneDrive')).toHaveAttribute('title', 'SharePoint, OneDrive');
  });

  it('names one hidden value in the singular', () => {
    render(<ChipList values={['Admin impact', 'New feature', 'Retirement']} noun="tags" />);
    expect(screen.getByLabelText('+1 more tag: Retirement')).toBeInTheDocument();
  });

  it('shows no +N for 2 or fewer, drops blanks and repeats, and marks an empty list only when asked', () => {
    const { rerender, container } = render(<ChipList values={['Teams', ' ', 'Teams', 'Exchange']} noun="services" />);
    expect(screen.queryByText(/^\+/)).not.toBeInTheDocument();
    expect(screen.getAllByText('Teams')).toHaveLength(1);
    rerender(<ChipList values={[]} noun="permissions" emptyText="None" />);
    expect(screen.getByText('None')).toBeInTheDocument();
    rerender(<ChipList values={[]} noun="tags" />);
    expect(container).toBeEmptyDOMElement();
  });
});
