import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { anonymousRoutes } from './test-utils/fixtures.js';
import App from './App.js';

describe('dashboard routes', () => {
  it('shows the 404 page, with the header, for an unknown sub-path', async () => {
    stubFetch(anonymousRoutes);
    renderWithProviders(<App />, { route: '/nowhere' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText(/There is no page at \/nowhere/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'M365 Radar home' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
  });
});
