import { describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { NotFoundPage } from './NotFoundPage.js';

describe('NotFoundPage', () => {
  it('names the missing path and offers the home page and the dashboard', () => {
    render(
      <MemoryRouter initialEntries={['/admin/nowhere']}>
        <NotFoundPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText(/There is no page at \/admin\/nowhere/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to home page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Open Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('asks search engines not to index it while it is shown, inside a main landmark', () => {
    const { unmount } = render(
      <MemoryRouter initialEntries={['/dashboard/nowhere']}>
        <NotFoundPage />
      </MemoryRouter>,
    );
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    expect(screen.getByRole('main')).toBeInTheDocument();
    unmount();
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull();
  });
});
