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
});
