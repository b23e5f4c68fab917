import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { SinceLastVisitBanner } from './SinceLastVisitBanner.js';

describe('SinceLastVisitBanner', () => {
  it('says nothing on a first visit or for guests', () => {
    const { container } = render(<SinceLastVisitBanner visit={{ lastVisitAt: null, changesSinceLastVisit: 0 }} active={false} onShow={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
    render(<SinceLastVisitBanner visit={null} active={false} onShow={() => undefined} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('counts the changes and offers to list them; singular, zero and active forms', () => {
    const onShow = jest.fn();
    const { rerender } = render(
      <SinceLastVisitBanner visit={{ lastVisitAt: '2026-02-05T09:30:00.000Z', changesSinceLastVisit: 1234 }} active={false} onShow={onShow} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('1,234 changes since your last visit');
    fireEvent.click(screen.getByRole('button', { name: 'Show changes' }));
    expect(onShow).toHaveBeenCalledWith(true);
    rerender(<SinceLastVisitBanner visit={{ lastVisitAt: '2026-02-05T09:30:00.000Z', changesSinceLastVisit: 1 }} active onShow={onShow} />);
    expect(screen.getByRole('alert')).toHaveTextContent('1 change since your last visit');
    expect(screen.getByRole('alert')).toHaveTextContent('showing only these');
    fireEvent.click(screen.getByRole('button', { name: 'Show all items' }));
    expect(onShow).toHaveBeenLastCalledWith(false);
    rerender(<SinceLastVisitBanner visit={{ lastVisitAt: '2026-02-05T09:30:00.000Z', changesSinceLastVisit: 0 }} active={false} onShow={onShow} />);
    expect(screen.getByRole('alert')).toHaveTextContent('No changes since your last visit');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
