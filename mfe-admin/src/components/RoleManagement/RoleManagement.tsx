import { useState } from 'react';
import { Alert, Stack, Typography } from '@mui/material';
import { routes, type AppUser, type Role } from '@radar/contracts';
import { callEndpoint, urlOf, useDialogs, useEndpoint, useSession } from '@radar/shared-ui';
import { useAppUsers, useRoles, useUserRoles } from '../../api/admin.js';
import { errorMessageOf, useAdminAction } from '../../api/admin-actions.js';
import { AssignRoleForm } from './AssignRoleForm.js';
import { RoleFormDialog } from './RoleFormDialog.js';
import { RolesTable } from './RolesTable.js';
import { UsersTable } from './UsersTable.js';
import { UserTenantsDialog } from './UserTenantsDialog.js';
import { useRoleActions, userLabel } from './role-actions.js';

/** Ending a user's sessions or resetting their passkeys revokes their API tokens too unless the admin unticks this. */
const REVOKE_THEIR_TOKENS = { label: 'Also revoke their API tokens', checked: true };

/**
 * Role Management: roles (create, edit, delete), assigning roles, users (remove a role, delete the user, the private
 * tenants they may see).
 */
export function RoleManagement() {
  const roles = useRoles();
  const users = useAppUsers();
  const assignments = useUserRoles();
  const actions = useRoleActions();
  const dialogs = useDialogs();
  const session = useSession();
  const [form, setForm] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  const tenants = useEndpoint(routes.tenants.list, {});
  const grants = useEndpoint(routes.tenants.access, {});
  const run = useAdminAction();
  const [editingTenants, setEditingTenants] = useState<AppUser | null>(null);
  const [savingTenants, setSavingTenants] = useState(false);
  const privateTenants = (tenants.data ?? []).filter((t) => t.visibility === 'private');
  const byUser = new Map((grants.data ?? []).map((g) => [g.userId, g.tenantIds]));
  const saveTenants = async (user: AppUser, tenantIds: number[]) => {
    setSavingTenants(true);
    const outcome = await run(() => callEndpoint(routes.tenants.userTenants, { params: { id: user.id }, body: { tenantIds } }), {
      success: () => ({
        title: 'Tenants saved',
        description: `${userLabel(user)} now sees ${tenantIds.length} private ${tenantIds.length === 1 ? 'tenant' : 'tenants'}.`,
      }),
      failure: (err) => `Could not save the tenants of ${userLabel(user)}: ${errorMessageOf(err)}`,
      revalidate: [urlOf(routes.tenants.access, {})],
    });
    setSavingTenants(false);
    if (outcome.ok) setEditingTenants(null);
  };

  const loadError = roles.error ?? users.error ?? assignments.error;
  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
        Role Management
      </Typography>
      {loadError ? <Alert severity="error">Could not load users and roles ({errorMessageOf(loadError)}).</Alert> : null}
      <RolesTable
        roles={roles.data ?? []}
        onCreate={() => setForm({ open: true, role: null })}
        onEdit={(role) => setForm({ open: true, role })}
        onDelete={(role) =>
          void dialogs.confirm(`Delete the role "${role.name}"? This will remove it from all users.`, {
            title: 'Delete role',
            okText: 'Delete Role',
            action: () => actions.deleteRole(role),
          })
        }
      />
      <AssignRoleForm
        users={users.data ?? []}
        roles={roles.data ?? []}
        onAssign={async (userId, roleId) => {
          const held = assignments.data?.find((a) => a.userId === userId && a.roleId === roleId);
          const user = users.data?.find((u) => u.id === userId);
          return (await actions.assignRole(userId, roleId, held && user ? { user: userLabel(user), role: held.role.name } : undefined)).ok;
        }}
      />
      <UsersTable
        currentUserId={session.user?.id ?? null}
        tenantGrants={tenants.data ? { names: new Map(tenants.data.map((t) => [t.id, t.name])), byUser, onEdit: (user) => setEditingTenants(user) } : undefined}
        users={users.data ?? []}
        assignments={assignments.data ?? []}
        onRemoveRole={(user, assignment) =>
          void dialogs.confirm(`Remove the role "${assignment.role.name}" from ${userLabel(user)}?`, {
            title: 'Remove role',
            okText: 'Remove Role',
            action: () => actions.removeRole(user.id, assignment.roleId, assignment.role.name),
          })
        }
        onEndSessions={(user) =>
          void dialogs.confirm(`Sign ${userLabel(user)} out of every browser and device?`, {
            title: 'End sessions',
            okText: 'End Sessions',
            choice: REVOKE_THEIR_TOKENS,
            action: (revokeTokens) => actions.endSessions(user, revokeTokens),
          })
        }
        onResetPasskeys={(user) =>
          void dialogs.confirm(
            `Remove every passkey of ${userLabel(user)} and sign them out everywhere? They sign in with an e-mailed code and add a new passkey (for an admin who lost theirs).`,
            {
              title: 'Reset passkeys',
              okText: 'Reset Passkeys',
              choice: REVOKE_THEIR_TOKENS,
              action: (revokeTokens) => actions.resetPasskeys(user, revokeTokens),
            },
          )
        }
        onDeleteUser={(user) =>
          void dialogs.confirm(`Delete ${userLabel(user)}? This will remove them from all roles.`, {
            title: 'Delete user',
            okText: 'Delete User',
            action: () => actions.deleteUser(user),
          })
        }
      />
      {editingTenants ? (
        <UserTenantsDialog
          userLabel={userLabel(editingTenants)}
          tenants={privateTenants}
          granted={byUser.get(editingTenants.id) ?? []}
          busy={savingTenants}
          onSave={(ids) => void saveTenants(editingTenants, ids)}
          onCancel={() => setEditingTenants(null)}
        />
      ) : null}
      <RoleFormDialog
        open={form.open}
        role={form.role}
        onClose={() => setForm((f) => ({ ...f, open: false }))}
        onSubmit={async (input) => (form.role ? await actions.updateRole(form.role.id, input) : await actions.createRole(input)).ok}
      />
    </Stack>
  );
}
