import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { useAuthDialogStore } from '@radar/shared-ui';
import { App } from './App.js';

const guest = {
  'GET /api/auth/session-user': { body: { user: null } },
  'GET /api/auth/user': { status: 401, body: { error: { name: 'UnauthorizedError', message: 'Not signed in' } } },
};

function Where() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{pathname + search}</output>;
}

const mount = (route: string) =>
  renderWithProviders(
    <>
      <App />
      <Where />
    </>,
    { route },
  );

describe('shell routes', () => {
  it('shows the 404 page for an unknown route, with header and footer', () => {
    stubFetch(guest);
    mount('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'M365 Radar home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeInTheDocument();
  });

  it.each([
    ['/roadmap/4711', '/dashboard?roadmap=4711'],
    ['/message/MC123456', '/dashboard?message=MC123456'],
    ['/health/EX1000001', '/dashboard?health=EX1000001'],
  ])('share link %s opens %s', async (from, to) => {
    // The dashboard remote cannot load in jsdom (no federation runtime); its contained error logs to the console.
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    stubFetch(guest);
    mount(from);
    await waitFor(() => expect(screen.getByRole('status', { name: 'location' })).toHaveTextContent(to));
    consoleError.mockRestore();
  });

  it('opens the sign-in dialog for ?signin=1 and drops the parameter', async () => {
    stubFetch(guest);
    useAuthDialogStore.setState({ isOpen: false, mode: 'signup' });
    mount('/?signin=1');
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'location', hidden: true })).toHaveTextContent(/^\/$/);
  });

  it("confirms the sign-out page's sign-out with 'Signed out successfully' and drops the parameter", async () => {
    stubFetch(guest);
    mount('/?signedOut=1');
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status', { name: 'location', hidden: true })).toHaveTextContent(/^\/$/));
  });

  it('acts on every one-shot parameter once and drops them all, keeping the others', async () => {
    stubFetch(guest);
    useAuthDialogStore.setState({ isOpen: false, mode: 'signup', codeFor: null });
    mount('/?signedOut=1&recovery=admin%40example.com&keep=1');
    await waitFor(() => expect(screen.getByRole('status', { name: 'location', hidden: true })).toHaveTextContent(/^\/\?keep=1$/));
    expect(screen.getAllByText('Signed out successfully')).toHaveLength(1);
    expect(useAuthDialogStore.getState()).toMatchObject({ isOpen: true, mode: 'signin', codeFor: 'admin@example.com' });
  });

  it('shows the impersonation banner on every page while an admin impersonates', async () => {
    useAuthDialogStore.setState({ isOpen: false });
    stubFetch({
      'GET /api/auth/session-user': {
        body: {
          user: {
            id: 1,
            email: 'a@example.com',
            firstName: 'A',
            lastName: 'D',
            profileImageUrl: null,
            lastLoginAt: null,
            roles: [{ id: 2, name: 'Moderator' }],
            impersonatedRole: 'Moderator',
          },
        },
      },
    });
    mount('/terms');
    expect(await screen.findByRole('status', { name: 'Impersonation' })).toHaveTextContent('You are impersonating the Moderator role');
  });

  it('footer Sign Up opens the dialog in sign-up mode; privacy and terms pages render', async () => {
    stubFetch(guest);
    useAuthDialogStore.setState({ isOpen: false, mode: 'signin' });
    mount('/terms');
    expect(await screen.findByText(/30-day free trial/)).toBeInTheDocument();
    expect(screen.getByText(/at least 18 years old/)).toBeInTheDocument();
    expect(screen.getByText(/credit card or by ACH/)).toBeInTheDocument();
    expect(screen.getByText(/US dollars/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(useAuthDialogStore.getState()).toMatchObject({ isOpen: true, mode: 'signup' });
  });
});
