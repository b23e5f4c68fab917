import type { AppUser, Role, RoleInput } from '@radar/contracts';
import { adminWrites } from '../../api/admin-writes.js';
import { useToast } from '@radar/shared-ui';
import { ROLE_LISTS, failureWithReason, useAdminAction } from '../../api/admin-actions.js';

export const userLabel = (user: Pick<AppUser, 'firstName' | 'lastName' | 'email'>) => {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name ? `${name} (${user.email})` : user.email;
};

/** A change of a user's roles ends their sessions on the server (their rights change at the next sign-in): say so. */
const SESSIONS_ENDED = 'Their sessions were ended: the new rights apply when they sign in again.';

/** Role and user writes with their success and failure toasts; each revalidates roles, users and assignments. */
export function useRoleActions() {
  const run = useAdminAction();
  const { toast } = useToast();
  return {
    createRole: (input: RoleInput) =>
      run(() => adminWrites.createRole(input), {
        success: (role) => ({ title: 'Role created', description: `The role ${role.name} was created.` }),
        failure: () => 'Failed to create role. Please try again.',
        revalidate: ROLE_LISTS,
      }),
    updateRole: (id: number, input: RoleInput) =>
      run(() => adminWrites.updateRole(id, input), {
        success: { title: 'Role updated', description: `The role ${input.name} was saved.` },
        failure: (error) => failureWithReason('Failed to update role', error),
        revalidate: ROLE_LISTS,
      }),
    deleteRole: (role: Role) =>
      run(() => adminWrites.deleteRole(role.id), {
        success: { title: 'Role deleted', description: `The role ${role.name} was deleted.` },
        failure: (error) => failureWithReason('Failed to delete role', error),
        revalidate: ROLE_LISTS,
      }),
    /** `already`: the user holds the role (nothing to write: say so instead of claiming an assignment). */
    assignRole: async (userId: number, roleId: number, already?: { user: string; role: string }) => {
      if (already) {
        toast({ title: 'Role already assigned', description: `${already.user} already has the role ${already.role}. Nothing was changed.` });
        return { ok: true as const, result: null };
      }
      return run(() => adminWrites.assignRole(userId, roleId), {
        success: { title: 'Role assigned', description: `The role was assigned to the user. ${SESSIONS_ENDED}` },
        failure: (error) => failureWithReason('Failed to assign role', error),
        revalidate: ROLE_LISTS,
      });
    },
    removeRole: (userId: number, roleId: number, roleName: string) =>
      run(() => adminWrites.removeRole(userId, roleId), {
        success: { title: 'Role removed', description: `The role ${roleName} was removed from the user. ${SESSIONS_ENDED}` },
        failure: (error) => failureWithReason('Failed to remove role', error),
        revalidate: ROLE_LISTS,
      }),
    endSessions: (user: AppUser, revokeTokens: boolean) =>
      run(() => adminWrites.endUserSessions(user.id, revokeTokens), {
        success: (answer) => ({
          title: 'Sessions ended',
          description: `${user.email} must sign in again.${
            answer.revokedTokens ? ` ${answer.revokedTokens === 1 ? 'Their API token was' : `Their ${answer.revokedTokens} API tokens were`} revoked.` : ''
          }`,
        }),
        failure: (error) => failureWithReason('Failed to end the sessions', error),
        revalidate: [],
      }),
    resetPasskeys: (user: AppUser, revokeTokens: boolean) =>
      run(() => adminWrites.resetPasskeys(user.id, revokeTokens), {
        success: (answer) => ({ title: 'Passkeys reset', description: `${user.email}: ${answer.message}` }),
        failure: (error) => failureWithReason('Failed to reset the passkeys', error),
        revalidate: [],
      }),
    deleteUser: (user: AppUser) =>
      run(() => adminWrites.deleteUser(user.id), {
        success: { title: 'User deleted', description: `${user.email} was deleted.` },
        failure: (error) => failureWithReason('Failed to delete user', error),
        revalidate: ROLE_LISTS,
      }),
  };
}
