import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { PaginationFooter } from './PaginationFooter.js';

describe('PaginationFooter', () => {
  it('is absent when there is one page', () => {
    const { container } = render(<PaginationFooter page={1} totalPages={1} total={12} onPageChange={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the page text and moves with Previous and Next', () => {
    const onPageChange = jest.fn();
    render(<PaginationFooter page={1} totalPages={3} total={120} onPageChange={onPageChange} />);
    expect(screen.getByText('Page 1 of 3 (120 total items)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it('disables Next on the last page', () => {
    render(<PaginationFooter page={3} totalPages={3} total={120} onPageChange={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });
});
