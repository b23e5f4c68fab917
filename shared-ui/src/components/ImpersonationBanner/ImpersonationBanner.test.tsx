import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/render.js';
import { makeUser, stubFetch } from '../../test/fetch-stub.js';
import { ImpersonationBanner } from './ImpersonationBanner.js';

describe('ImpersonationBanner', () => {
  it('says which role is impersonated and stops impersonating', async () => {
    let impersonating = true;
    const { calls } = stubFetch({
      'GET /api/auth/session-user': () => ({ body: { user: makeUser({ impersonatedRole: impersonating ? 'User' : null, roles: [{ id: 3, name: 'User' }] }) } }),
      'DELETE /api/dev/clear-impersonation': () => {
        impersonating = false;
        return { body: { message: 'Impersonation cleared' } };
      },
    });
    renderWithProviders(<ImpersonationBanner />, { withAuthDialog: false });
    const banner = await screen.findByRole('status', { name: 'Impersonation' });
    expect(banner).toHaveTextContent('You are impersonating the User role: you see and can do only what a User can.');
    fireEvent.click(screen.getByRole('button', { name: 'Stop impersonating' }));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Impersonation' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/dev/clear-impersonation')).toBe(true);
  });

  it('shows nothing while nobody impersonates', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/session-user': { body: { user: makeUser({ impersonatedRole: null }) } } });
    renderWithProviders(<ImpersonationBanner />, { withAuthDialog: false });
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(screen.queryByRole('status', { name: 'Impersonation' })).not.toBeInTheDocument();
  });
});
