import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
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
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ lastName: null, roles: [{ id: 1, name: 'Admin' }] }) } },
      'GET /api/tokens': { body: [] },
    });
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

  it('signs out everywhere after a confirmation, then says so', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'POST /api/auth/logout-everywhere': { body: { success: true, message: 'Signed out on every device' } },
    });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/api/auth/logout-everywhere')).toBe(true));
    await waitFor(() => expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Signed out on every device' }));
  });

  it('offers to revoke the API tokens too, and sends that with the sign-out', async () => {
    const token = { id: 4, name: 'Backup script', prefix: 'rdr_abcd…', createdAt: '2026-02-01T10:00:00.000Z', lastUsedAt: null };
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'GET /api/tokens': { body: [token, { ...token, id: 5, name: 'Agent' }] },
      'POST /api/auth/logout-everywhere': { body: { success: true, message: 'Signed out on every device', revokedTokens: 2 } },
    });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Also revoke my 2 API tokens' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(dialog).toHaveTextContent('Your 2 API tokens are revoked too.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ revokeTokens: true }));
  });

  it('cancelling changes nothing', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } } });
    renderWithProviders(<ProfilePage />, { withAuthDialog: false });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
