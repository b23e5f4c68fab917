import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useToastStore } from '@radar/shared-ui';
import { renderWithProviders, stubFetch } from '@radar/shared-ui/test';
import { adminSession, assignments, roles, users } from '../../test-utils/fixtures.js';
import { parsePermissions } from './RoleFormDialog.js';
import { RoleManagement } from './RoleManagement.js';

afterEach(() => useToastStore.setState({ toasts: [] }));

const lists = {
  ...adminSession,
  'GET /api/admin/roles': { body: roles },
  'GET /api/admin/app-users': { body: users },
  'GET /api/admin/user-roles': { body: assignments },
};

async function mount(extra: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({ ...lists, ...extra });
  renderWithProviders(<RoleManagement />);
  await screen.findByRole('cell', { name: 'bob@example.com' });
  return stub;
}

const chooseOption = async (label: string, option: string) => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
};

describe('RoleManagement', () => {
  it('parses permissions from commas and lines, dropping blanks and repeats', () => {
    expect(parsePermissions(' read, write\nexport,,read ')).toEqual(['read', 'write', 'export']);
    expect(parsePermissions('   ')).toEqual([]);
  });

  it('lists roles with permission chips capped at 2 plus +N', async () => {
    await mount();
    const adminRow = screen.getByRole('row', { name: /^Admin Built-in Full access/ });
    expect(within(adminRow).getByText('admin')).toBeInTheDocument();
    expect(within(adminRow).getByText('moderate')).toBeInTheDocument();
    expect(within(adminRow).queryByText('read')).not.toBeInTheDocument();
    expect(within(adminRow).getByText('+2')).toBeInTheDocument();
  });

  it("requires a role name ('Role name is required'), then creates the role with its permissions", async () => {
    const { calls } = await mount({ 'POST /api/admin/roles': { status: 201, body: { id: 9, name: 'Editor', description: null, permissions: ['edit'] } } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Role' });
    fireEvent.change(within(dialog).getByLabelText(/Role name/), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await within(dialog).findByText('Role name is required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Role name/), { target: { value: ' Editor ' } });
    fireEvent.change(within(dialog).getByLabelText('Permissions'), { target: { value: 'edit, publish' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await screen.findByText('Role created')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Editor', description: null, permissions: ['edit', 'publish'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'GET' && c.url.endsWith('/api/admin/roles')).length).toBeGreaterThan(1);
  });

  it('shows the create failure toast and keeps the dialog open', async () => {
    await mount({ 'POST /api/admin/roles': { status: 409, body: { error: { name: 'ConflictError', message: 'exists' } } } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Role' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Role name/), { target: { value: 'Admin' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await screen.findByText('Failed to create role. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('edits a role (PUT) with its current values filled in', async () => {
    const { calls } = await mount({ 'PUT /api/admin/roles/7': { body: { ...roles[2], description: 'Reads everything' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Edit role Auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Role' });
    expect(within(dialog).getByLabelText(/Role name/)).toHaveValue('Auditor');
    expect(within(dialog).getByLabelText('Permissions')).toHaveValue('read');
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Reads everything' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Role' }));
    expect(await screen.findByText('Role updated')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ name: 'Auditor', description: 'Reads everything', permissions: ['read'] });
  });

  it("asks before deleting a role ('This will remove it from all users.'); Cancel sends nothing", async () => {
    const { calls } = await mount({ 'DELETE /api/admin/roles/7': { body: { success: true } } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete role Auditor' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    expect(dialog).toHaveTextContent('Delete the role "Auditor"? This will remove it from all users.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete role Auditor' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Role' }));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/admin/roles/7'))).toBe(true);
  });

  it('offers no Delete button for the built-in roles', async () => {
    await mount();
    expect(screen.queryByRole('button', { name: 'Delete role Admin' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete role Moderator' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit role Admin' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete role Auditor' })).toBeInTheDocument();
  });

  it('shows the server reason when a role cannot be deleted', async () => {
    await mount({ 'DELETE /api/admin/roles/7': { status: 409, body: { error: { name: 'ConflictError', message: 'The Auditor role changed meanwhile' } } } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete role Auditor' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete Role' }));
    expect(await screen.findByText('Failed to delete role: The Auditor role changed meanwhile')).toBeInTheDocument();
  });

  it('assigns a role only once both a user and a role are selected', async () => {
    const { calls } = await mount({ 'POST /api/admin/user-roles': { status: 201, body: assignments[1] } });
    const assign = screen.getByRole('button', { name: 'Assign Role' });
    expect(assign).toBeDisabled();
    await chooseOption('User', 'Bob Builder (bob@example.com)');
    expect(assign).toBeDisabled();
    await chooseOption('Role', 'Moderator');
    expect(assign).toBeEnabled();
    fireEvent.click(assign);
    expect(await screen.findByText('Role assigned')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ userId: 2, roleId: 2 });
  });

  it('asks before removing a role from a user, and reports a refusal', async () => {
    const { calls } = await mount({
      'DELETE /api/admin/user-roles/2/7': { body: { success: true } },
      'DELETE /api/admin/user-roles/1/1': { status: 409, body: { error: { name: 'ConflictError', message: 'The last admin cannot lose the Admin role' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove role Auditor from bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove role' });
    expect(dialog).toHaveTextContent('Remove the role "Auditor" from Bob Builder (bob@example.com)?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Role' }));
    expect(await screen.findByText('Role removed')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/admin/user-roles/2/7'))).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Remove role Admin from admin@example.com' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove Role' }));
    expect(await screen.findByText('Failed to remove role: The last admin cannot lose the Admin role')).toBeInTheDocument();
  });

  it("asks before deleting a user ('This will remove them from all roles.')", async () => {
    const { calls } = await mount({ 'DELETE /api/admin/app-users/2': { body: { success: true } } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete user bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Delete Bob Builder (bob@example.com)? This will remove them from all roles.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/admin/app-users/2'))).toBe(true);
  });

  it('ends every session of a user after asking, revoking their API tokens unless unticked (never offered for the admin themselves)', async () => {
    const { calls } = await mount({
      'DELETE /api/admin/app-users/2/sessions': {
        body: { success: true, message: 'Ended 2 sessions of bob@example.com and revoked 1 API token', ended: 2, revokedTokens: 1 },
      },
    });
    expect(screen.queryByRole('button', { name: 'End sessions of admin@example.com' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'End sessions of bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'End sessions' });
    expect(dialog).toHaveTextContent('Sign Bob Builder (bob@example.com) out of every browser and device?');
    expect(within(dialog).getByRole('checkbox', { name: 'Also revoke their API tokens' })).toBeChecked();
    fireEvent.click(within(dialog).getByRole('button', { name: 'End Sessions' }));
    expect(await screen.findByText('Sessions ended')).toBeInTheDocument();
    expect(screen.getByText('bob@example.com must sign in again. Their API token was revoked.')).toBeInTheDocument();
    const ended = calls.filter((c) => c.method === 'DELETE' && c.url.includes('/api/admin/app-users/2/sessions'));
    expect(ended.map((c) => new URL(c.url, 'http://localhost').search)).toEqual(['']);

    // Unticked, the tokens are kept.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'End sessions of bob@example.com' }));
    const again = await screen.findByRole('dialog', { name: 'End sessions' });
    const box = within(again).getByRole('checkbox', { name: 'Also revoke their API tokens' });
    expect(box).toBeChecked();
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    fireEvent.click(within(again).getByRole('button', { name: 'End Sessions' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').length).toBe(2));
    expect(new URL(calls.filter((c) => c.method === 'DELETE')[1]!.url, 'http://localhost').search).toBe('?keepTokens=true');
  });

  it('resets the passkeys of a colleague who lost theirs, after asking', async () => {
    const { calls } = await mount({
      'DELETE /api/admin/users/2/passkeys': {
        body: { success: true, message: '2 passkeys removed and 1 session ended: they sign in with a code and add a new passkey' },
      },
    });
    expect(screen.queryByRole('button', { name: 'Reset passkeys of admin@example.com' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reset passkeys of bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset passkeys' });
    const box = within(dialog).getByRole('checkbox', { name: 'Also revoke their API tokens' });
    expect(box).toBeChecked();
    fireEvent.click(box);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Passkeys' }));
    expect(await screen.findByText('Passkeys reset')).toBeInTheDocument();
    expect(screen.getByText(/bob@example.com: 2 passkeys removed/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/api/admin/users/2/passkeys?keepTokens=true'))).toBe(true);
  });

  it('falls back to a generic failure text when the server gives no reason', async () => {
    await mount({ 'DELETE /api/admin/app-users/2': { status: 500 } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete user bob@example.com' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('Failed to delete user. Please try again.')).toBeInTheDocument();
  });

  it('gives a user private tenants and shows them in the Tenants column', async () => {
    const never = { lastSyncAt: null, status: null, error: null, lastSuccessAt: null };
    const tenant = (id: number, name: string, visibility: 'public' | 'private') => ({
      id,
      name,
      tenantId: `${id}1111111-1111-4111-8111-111111111111`,
      clientId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      cloud: 'worldwide',
      visibility,
      enabled: true,
      secretSet: true,
      secretExpiresOn: null,
      fromEnvironment: false,
      counts: { livePosts: 0, posts: 0 },
      feeds: { messages: never, health: never },
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    let grants = [{ userId: 2, tenantIds: [5] }];
    const { calls } = await mount({
      'GET /api/admin/tenants': { body: [tenant(4, 'Contoso', 'public'), tenant(5, 'Fabrikam', 'private'), tenant(6, 'Northwind', 'private')] },
      'GET /api/admin/tenant-access': () => ({ body: grants }),
      'PUT /api/admin/app-users/2/tenants': (init) => {
        const { tenantIds } = JSON.parse(String(init?.body)) as { tenantIds: number[] };
        grants = [{ userId: 2, tenantIds }];
        return { body: { tenantIds } };
      },
    });
    const bob = (await screen.findByRole('cell', { name: 'bob@example.com' })).closest('tr')!;
    expect(await within(bob).findByText('Fabrikam')).toBeInTheDocument();
    const ada = screen.getByRole('cell', { name: 'admin@example.com' }).closest('tr')!;
    expect(within(ada).getByText('Public tenants only')).toBeInTheDocument();
    fireEvent.click(within(bob).getByRole('button', { name: 'Tenants of bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: /^Tenants of Bob Builder/ });
    expect(within(dialog).queryByRole('checkbox', { name: 'Contoso' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Fabrikam' })).toBeChecked();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Northwind' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Tenants saved')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ tenantIds: [5, 6] }]);
    expect(await within(bob).findByText('Fabrikam, Northwind')).toBeInTheDocument();
  });
});
