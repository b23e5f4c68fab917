import { Button, Chip, IconButton, Paper, Stack, Typography } from '@mui/material';
import { AdminTable } from '../AdminTable/index.js';
import { DeleteIconButton } from '../DeleteIconButton/index.js';
import { CloseIcon } from '../icons/index.js';
import type { AppUser, UserRoleAssignment } from '@radar/contracts';

export interface UsersTableProps {
  users: AppUser[];
  assignments: UserRoleAssignment[];
  onRemoveRole: (user: AppUser, assignment: UserRoleAssignment) => void;
  onDeleteUser: (user: AppUser) => void;
  /** Ends every session of the user (they must sign in again); absent: not offered. */
  onEndSessions?: (user: AppUser) => void;
  /** Removes the user's passkeys (another admin recovering a colleague who lost theirs). */
  onResetPasskeys?: (user: AppUser) => void;
  /** The signed-in admin: not offered to delete their own account. */
  currentUserId?: number | null;
  /** The private tenants each user may see (by user id), their names, and the action that changes them. */
  tenantGrants?: { names: Map<number, string>; byUser: Map<number, number[]>; onEdit: (user: AppUser) => void };
}

const nameOf = (user: AppUser) => [user.firstName, user.lastName].filter(Boolean).join(' ') || null;

/** The users with their roles (each removable) and a delete button (not on one's own account). */
export function UsersTable({
  users,
  assignments,
  onRemoveRole,
  onDeleteUser,
  onEndSessions,
  onResetPasskeys,
  currentUserId = null,
  tenantGrants,
}: UsersTableProps) {
  const tenantsOf = (user: AppUser) => {
    const names = (tenantGrants?.byUser.get(user.id) ?? []).map((id) => tenantGrants?.names.get(id)).filter(Boolean);
    return names.length ? names.join(', ') : 'Public tenants only';
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Users
      </Typography>
      <AdminTable
        label="Users"
        framed={false}
        rows={users}
        rowKey={(user) => user.id}
        title={(user) => nameOf(user) ?? user.email}
        columns={[
          { key: 'name', label: 'Name', render: (user) => nameOf(user) ?? '—' },
          { key: 'email', label: 'Email', render: (user) => user.email },
          { key: 'verified', label: 'Verified', render: (user) => (user.isEmailVerified ? 'Yes' : 'No') },
          { key: 'digest', label: 'Weekly digest', render: (user) => (user.hasWeeklyDigestSubscription ? 'Subscribed' : 'No') },
          {
            key: 'roles',
            label: 'Roles',
            render: (user) => {
              const mine = assignments.filter((a) => a.userId === user.id);
              return (
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                  {mine.length === 0 ? <Typography variant="body2">No roles</Typography> : null}
                  {mine.map((assignment) => (
                    <Chip
                      key={assignment.id}
                      size="small"
                      label={
                        <Stack direction="row" component="span" sx={{ alignItems: 'center' }}>
                          {assignment.role.name}
                          <IconButton
                            size="small"
                            aria-label={`Remove role ${assignment.role.name} from ${user.email}`}
                            onClick={() => onRemoveRole(user, assignment)}
                            sx={{ ml: 0.25, mr: -0.75, p: 0.25 }}
                          >
                            <CloseIcon sx={{ fontSize: 14 }} />
                          </IconButton>
                        </Stack>
                      }
                    />
                  ))}
                </Stack>
              );
            },
          },
          ...(tenantGrants ? [{ key: 'tenants', label: 'Tenants', render: (user: AppUser) => tenantsOf(user) }] : []),
        ]}
        actions={(user) => (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
            {tenantGrants ? (
              <Button size="small" variant="outlined" aria-label={`Tenants of ${user.email}`} onClick={() => tenantGrants.onEdit(user)}>
                Tenants
              </Button>
            ) : null}
            {onEndSessions && user.id !== currentUserId ? (
              <Button size="small" variant="outlined" color="warning" aria-label={`End sessions of ${user.email}`} onClick={() => onEndSessions(user)}>
                End sessions
              </Button>
            ) : null}
            {onResetPasskeys && user.id !== currentUserId ? (
              <Button size="small" variant="outlined" color="warning" aria-label={`Reset passkeys of ${user.email}`} onClick={() => onResetPasskeys(user)}>
                Reset passkeys
              </Button>
            ) : null}
            {/* An admin cannot delete their own account here (the server refuses it too). */}
            {user.id === currentUserId ? null : (
              <DeleteIconButton label={`Delete user ${user.email}`} tooltip="Delete user" onClick={() => onDeleteUser(user)} />
            )}
          </Stack>
        )}
      />
    </Paper>
  );
}
