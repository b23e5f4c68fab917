import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import App from './App.js';

describe('weekly digest routes', () => {
  it('shows the 404 page for an unknown sub-path', async () => {
    stubFetch({ 'GET /api/auth/session-user': { body: { user: null } } });
    renderWithProviders(<App />, { route: '/archive' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Weekly Digest' })).not.toBeInTheDocument();
  });
});
