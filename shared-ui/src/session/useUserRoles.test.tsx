import { describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../test/render.js';
import { stubFetch } from '../test/fetch-stub.js';
import { useUserRoles } from './useUserRoles.js';

function Probe() {
  const { roleNames, isModerator, isAdmin, isLoading } = useUserRoles();
  return <output>{isLoading ? 'loading' : `${roleNames.join(',') || 'none'} moderator=${isModerator} admin=${isAdmin}`}</output>;
}

const entry = (id: number, name: string) => ({ id, roleId: id, role: { id, name } });

describe('useUserRoles', () => {
  it('reads the role names from GET /api/auth/user-roles', async () => {
    const { calls } = stubFetch({ 'GET /api/auth/user-roles': { body: [entry(2, 'Moderator')] } });
    renderWithProviders(<Probe />, { withAuthDialog: false });
    expect(await screen.findByText('Moderator moderator=true admin=false')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/user-roles']);
  });

  it('treats Admin as a moderator, and a guest (no roles) or a failed call as neither', async () => {
    stubFetch({ 'GET /api/auth/user-roles': { body: [entry(1, 'Admin')] } });
    const { unmount } = renderWithProviders(<Probe />, { withAuthDialog: false });
    expect(await screen.findByText('Admin moderator=true admin=true')).toBeInTheDocument();
    unmount();
    stubFetch({ 'GET /api/auth/user-roles': { status: 500 } });
    renderWithProviders(<Probe />, { withAuthDialog: false });
    await waitFor(() => expect(screen.getByText('none moderator=false admin=false')).toBeInTheDocument());
  });
});
