import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch, type StubAnswer } from '@radar/shared-ui/test';
import { adminSession } from '../../test-utils/fixtures.js';
import useSWR from 'swr';
import { ImpersonationCard } from './ImpersonationCard.js';

/** Stands in for the shell's header, which reads /api/auth/user-roles. */
function HeaderRolesProbe() {
  const { data } = useSWR<Array<{ role: { name: string } }>>('/api/auth/user-roles');
  return <p>header roles: {data?.map((r) => r.role.name).join(',')}</p>;
}

afterEach(() => useToastStore.setState({ toasts: [] }));

/** A tiny server: the impersonated role lives here and the role lists follow it. */
function impersonationServer(initial: string | null, overrides: Record<string, StubAnswer> = {}) {
  let role = initial;
  const rolesOf = () => [{ id: 1, roleId: 1, role: { id: 1, name: role ?? 'Admin' } }];
  return stubFetch({
    ...adminSession,
    'GET /api/dev/current-impersonation': () => ({ body: { isImpersonating: role !== null, impersonatedRole: role } }),
    'GET /api/moderator/user/roles': () => ({ body: rolesOf() }),
    'GET /api/auth/user-roles': () => ({ body: rolesOf() }),
    'POST /api/dev/impersonate-role': (init) => {
      role = (JSON.parse(String(init?.body)) as { role: string | null }).role;
      return { body: { message: role ? `Now impersonating role: ${role}` : 'Impersonation cleared' } };
    },
    'DELETE /api/dev/clear-impersonation': () => {
      role = null;
      return { body: { message: 'Impersonation cleared' } };
    },
    ...overrides,
  });
}

const count = (calls: Array<{ url: string; method: string }>, path: string) => calls.filter((c) => c.method === 'GET' && c.url.endsWith(path)).length;

describe('ImpersonationCard', () => {
  it('offers None, Admin, Moderator and User, and no Clear button when not impersonating', async () => {
    impersonationServer(null);
    renderWithProviders(<ImpersonationCard />);
    expect(await screen.findByText('Not impersonating')).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['None', 'Admin', 'Moderator', 'User']);
    expect(screen.getByRole('radio', { name: 'None' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });

  it('impersonates a role and refetches the role lists and the session', async () => {
    const { calls } = impersonationServer(null);
    renderWithProviders(
      <>
        <HeaderRolesProbe />
        <ImpersonationCard />
      </>,
    );
    await screen.findByText('Effective roles: Admin');
    await screen.findByText('header roles: Admin');
    const before = { mod: count(calls, '/api/moderator/user/roles'), session: count(calls, '/api/auth/session-user') };
    fireEvent.click(screen.getByRole('radio', { name: 'Moderator' }));
    expect(await screen.findByText('Impersonating: Moderator')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ role: 'Moderator' });
    expect(await screen.findByText('Effective roles: Moderator')).toBeInTheDocument();
    expect(count(calls, '/api/moderator/user/roles')).toBeGreaterThan(before.mod);
    expect(await screen.findByText('header roles: Moderator')).toBeInTheDocument();
    expect(count(calls, '/api/auth/user-roles')).toBe(2);
    expect(count(calls, '/api/auth/session-user')).toBeGreaterThan(before.session);
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
  });

  it('None clears through impersonate-role with a null role; Clear uses the clear route', async () => {
    const { calls } = impersonationServer('User');
    renderWithProviders(<ImpersonationCard />);
    expect(await screen.findByRole('radio', { name: 'User' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'None' }));
    expect(await screen.findByText('Not impersonating')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ role: null });

    fireEvent.click(screen.getByRole('radio', { name: 'Admin' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/dev/clear-impersonation'))).toBe(true));
    expect(await screen.findByText('Not impersonating')).toBeInTheDocument();
  });

  it("toasts 'Failed to impersonate role' and 'Failed to clear impersonation'", async () => {
    impersonationServer('Moderator', {
      'POST /api/dev/impersonate-role': { status: 500, body: { error: { name: 'Error', message: 'boom' } } },
      'DELETE /api/dev/clear-impersonation': { status: 500 },
    });
    renderWithProviders(<ImpersonationCard />);
    fireEvent.click(await screen.findByRole('radio', { name: 'User' }));
    expect(await screen.findByText('Failed to impersonate role')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('Failed to clear impersonation')).toBeInTheDocument();
    expect(screen.getByText('Impersonating: Moderator')).toBeInTheDocument();
  });

  it('says calmly that impersonation is turned off when the dev routes answer 404', async () => {
    stubFetch({ ...adminSession });
    renderWithProviders(<ImpersonationCard />);
    expect(await screen.findByText(/Impersonation is turned off on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert', { name: /error/i })).not.toBeInTheDocument();
  });
});
