import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { aboutCount, PaginationFooter } from './PaginationFooter.js';

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

  it('marks an estimated total as "about", to two significant digits', () => {
    render(<PaginationFooter page={2} totalPages={270} total={13_456} approximate onPageChange={() => undefined} />);
    expect(screen.getByText('Page 2 of about 270 (about 13,000 total items)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
    expect([aboutCount(1001), aboutCount(1_049), aboutCount(98_765), aboutCount(1_234_567), aboutCount(7)]).toEqual([
      'about 1,000',
      'about 1,000',
      'about 99,000',
      'about 1,200,000',
      'about 7',
    ]);
  });
});
