import { describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { makeUser, renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { roles } from '../../test-utils/fixtures.js';
import { AccessCheck } from './AccessCheck.js';

const adminWith = (secondFactor: { state: string; hasPasskey: boolean }) => ({
  'GET /api/auth/session-user': {
    body: { user: { ...makeUser({ id: 1, email: 'admin@example.com', roles: [{ id: 1, name: 'Admin' }] }), secondFactor } },
  },
});

describe('AccessCheck', () => {
  it('asks an admin who signed in with a code for their passkey, in the server’s words, instead of the admin page', async () => {
    stubFetch({
      ...adminWith({ state: 'verify-passkey', hasPasskey: true }),
      'GET /api/admin/roles': {
        status: 403,
        body: { error: { name: 'SecondFactorRequired', message: 'Admin pages need a sign-in with your passkey: sign in with it to continue' } },
      },
    });
    renderWithProviders(<AccessCheck>admin page</AccessCheck>, { withAuthDialog: false });
    expect(await screen.findByRole('heading', { name: 'Verify it’s you' })).toBeInTheDocument();
    expect(screen.getByText('Admin pages need a sign-in with your passkey: sign in with it to continue')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign in with your passkey' })).toBeInTheDocument();
    expect(screen.queryByText('admin page')).not.toBeInTheDocument();
    expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
  });

  it('sends an admin without a passkey to the profile when the policy wants one, and reminds the others to add one', async () => {
    stubFetch({
      ...adminWith({ state: 'add-passkey', hasPasskey: false }),
      'GET /api/admin/roles': {
        status: 403,
        body: { error: { name: 'SecondFactorRequired', message: 'Admin pages need a passkey: add one on your profile, then sign in with it' } },
      },
    });
    renderWithProviders(<AccessCheck>admin page</AccessCheck>, { withAuthDialog: false });
    expect(await screen.findByRole('link', { name: 'Add a passkey' })).toHaveAttribute('href', '/profile');

    stubFetch({ ...adminWith({ state: 'ok', hasPasskey: false }), 'GET /api/admin/roles': { body: roles } });
    renderWithProviders(<AccessCheck>admin page</AccessCheck>, { withAuthDialog: false });
    expect(await screen.findByText('admin page')).toBeInTheDocument();
    expect(screen.getByText(/Add a passkey to your profile/)).toBeInTheDocument();
  });

  it('keeps Access Denied for someone who is not an admin', async () => {
    stubFetch({
      'GET /api/auth/session-user': { body: { user: makeUser({ id: 2 }) } },
      'GET /api/admin/roles': { status: 403, body: { error: { name: 'NotAllowedError', message: 'You do not have permission to do this' } } },
    });
    renderWithProviders(<AccessCheck>admin page</AccessCheck>, { withAuthDialog: false });
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
  });
});
