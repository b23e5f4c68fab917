import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { FeaturedItem } from '@radar/contracts';
import { setViewportWidth } from '../../test/viewport.js';
import { FeaturedCarousel } from './FeaturedCarousel.js';

const item = (n: number): FeaturedItem => ({
  source: n % 2 ? 'roadmap' : 'messages',
  id: `id-${n}`,
  itemId: n % 2 ? String(1000 + n) : null,
  messageId: n % 2 ? null : `MC${n}`,
  title: `Item ${n}`,
  description: n % 2 ? `Description ${n}` : null,
  summary: n % 2 ? null : `Summary ${n}`,
  product: n % 2 ? 'Teams' : null,
  services: n % 2 ? null : 'Exchange Online, Teams',
  status: n % 2 ? 'Rolling out' : null,
});

const renderCarousel = (items: FeaturedItem[]) =>
  render(
    <MemoryRouter>
      <FeaturedCarousel items={items} />
    </MemoryRouter>,
  );

const titles = () => screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);

describe('FeaturedCarousel', () => {
  it('renders nothing without items', () => {
    const { container } = renderCarousel([]);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows 3 cards per slide and wraps around both ways', () => {
    renderCarousel([1, 2, 3, 4, 5, 6, 7].map(item));
    expect(titles()).toEqual(['Item 1', 'Item 2', 'Item 3']);
    expect(screen.getAllByRole('button', { name: /Go to slide/ })).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Previous featured items' }));
    expect(titles()).toEqual(['Item 7']);
    expect(screen.getByRole('button', { name: 'Go to slide 3' })).toHaveAttribute('aria-current', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Next featured items' }));
    expect(titles()).toEqual(['Item 1', 'Item 2', 'Item 3']);
    fireEvent.click(screen.getByRole('button', { name: 'Go to slide 2' }));
    expect(titles()).toEqual(['Item 4', 'Item 5', 'Item 6']);
  });

  it('on a phone a slide is one card, so the arrows sit beside it', () => {
    setViewportWidth(390);
    renderCarousel([1, 2, 3, 4].map(item));
    expect(titles()).toEqual(['Item 1']);
    expect(screen.getAllByRole('button', { name: /Go to slide/ })).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Previous featured items' }));
    expect(titles()).toEqual(['Item 4']);
    expect(screen.getByRole('group', { name: 'Slide 4 of 4' })).toBeInTheDocument();
  });

  it('links View Details to the dashboard dialog of each source', () => {
    renderCarousel([1, 2].map(item));
    expect(screen.getByRole('link', { name: 'View Details: Item 1' })).toHaveAttribute('href', '/dashboard?roadmap=1001');
    expect(screen.getByRole('link', { name: 'View Details: Item 2' })).toHaveAttribute('href', '/dashboard?message=MC2');
  });

  it('shows the arrows and dots whenever it shows, even with one slide', () => {
    renderCarousel([1, 2].map(item));
    expect(screen.getByRole('button', { name: 'Previous featured items' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to slide 1' })).toHaveAttribute('aria-current', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Next featured items' }));
    expect(titles()).toEqual(['Item 1', 'Item 2']);
  });
});
