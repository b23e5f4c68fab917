import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { renderWithProviders } from '../../test/render.js';
import { makeUser, stubFetch } from '../../test/fetch-stub.js';
import { useAuthDialogStore } from '../../auth/auth-dialog-store.js';
import { useToastStore } from '../../toast/toast-store.js';
import { AccountMenu } from './AccountMenu.js';

const unauthorized = { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } };

function mount() {
  renderWithProviders(
    <Routes>
      <Route path="*" element={<AccountMenu />} />
    </Routes>,
    { route: '/profile', withAuthDialog: false },
  );
}

const openMenu = async () => fireEvent.click(await screen.findByRole('button', { name: /^Account menu/ }));

describe('AccountMenu', () => {
  beforeEach(() => {
    useAuthDialogStore.setState({ isOpen: false, mode: 'signin' });
    useToastStore.setState({ toasts: [] });
  });

  it('guest: Guest User, the hint and Sign In opening the dialog', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/session-user': { body: { user: null } }, 'GET /api/auth/user': unauthorized });
    mount();
    await openMenu();
    expect(await screen.findByText('Guest User')).toBeInTheDocument();
    expect(screen.getByText('Sign in for notifications and more')).toBeInTheDocument();
    expect(screen.getByText('U')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Sign In' }));
    expect(useAuthDialogStore.getState()).toMatchObject({ isOpen: true, mode: 'signin' });
    // The fallback lookup ran because the first found no user.
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/session-user', '/api/auth/user']);
  });

  it('signed-in user: name, e-mail, My queue with its counts, Profile, Notifications, Sign out; no admin entries', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser() } }, 'GET /api/triage/counts': { body: { open: 5, overdue: 2 } } });
    mount();
    // The visible initials are part of the button's name (WCAG 2.5.3, label in name).
    expect(await screen.findByRole('button', { name: 'Account menu: AL' })).toBeInTheDocument();
    await openMenu();
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(await screen.findByRole('menuitem', { name: 'My queue: 5 open · 2 overdue' })).toHaveAttribute('href', '/dashboard?triage=mine');
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('menuitem', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
    expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.queryByText('Administrator')).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Admin Panel' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/session-user', '/api/triage/counts']);
  });

  it('admin found by the fallback lookup: Administrator badge and a plain /admin link; e-mail when no name', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: null } },
      'GET /api/auth/user': { body: makeUser({ firstName: null, lastName: null, roles: [{ id: 1, name: 'Admin' }] }) },
    });
    mount();
    await openMenu();
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    expect(screen.getAllByText('ada@example.com')).toHaveLength(2);
    expect(screen.getByText('Administrator')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
  });

  it('sign out posts, then toasts; a failure shows the error toast', async () => {
    const { calls } = stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'POST /api/auth/logout': { status: 204 },
    });
    mount();
    await openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(useToastStore.getState().toasts[0]?.title).toBe('Signed out successfully'));
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/auth/logout')).toBe(true);
  });

  it('sign out failure: Error / Failed to sign out. Please try again.', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser() } },
      'POST /api/auth/logout': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
    });
    mount();
    await openMenu();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() =>
      expect(useToastStore.getState().toasts[0]).toMatchObject({
        title: 'Error',
        description: 'Failed to sign out. Please try again.',
        variant: 'destructive',
      }),
    );
  });
});
