import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { ProfilePage } from './ProfilePage.js';

describe('ProfilePage', () => {
  it('asks guests to sign in, with a link to the dashboard', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: null } },
      'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'x' } } },
    });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    expect(await screen.findByText('Please sign in to view your profile.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('shows names, Not set, roles and the admin quick action', async () => {
    stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser({ lastName: null, roles: [{ id: 1, name: 'Admin' }] }) } }, 'GET /api/tokens': { body: [] } });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    expect(await screen.findByText('Not set')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'API tokens' })).toBeInTheDocument();
    expect(await screen.findByText('No API tokens yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Notification Settings' })).toHaveAttribute('href', '/notifications');
    expect(screen.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
  });

  it('says No roles assigned for a user without roles', async () => {
    stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } } });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    expect(await screen.findByText('No roles assigned')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });
});
