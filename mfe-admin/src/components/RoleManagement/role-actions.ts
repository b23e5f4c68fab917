import type { AppUser, Role, RoleInput } from '@radar/contracts';
import { apiRequest } from '@radar/shared-ui';
import { ROLE_LISTS, failureWithReason, useAdminAction } from '../../api/admin-actions.js';

export const userLabel = (user: Pick<AppUser, 'firstName' | 'lastName' | 'email'>) => {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name ? `${name} (${user.email})` : user.email;
};

/** Role and user writes with the toasts of spec 02 §8; each revalidates roles, users and assignments. */
export function useRoleActions() {
  const run = useAdminAction();
  return {
    createRole: (input: RoleInput) =>
      run(() => apiRequest<Role>('POST', '/api/admin/roles', input), {
        success: (role) => ({ title: 'Role created', description: `The role ${role?.name ?? input.name} was created.` }),
        failure: () => 'Failed to create role. Please try again.',
        revalidate: ROLE_LISTS,
      }),
    updateRole: (id: number, input: RoleInput) =>
      run(() => apiRequest<Role>('PUT', `/api/admin/roles/${id}`, input), {
        success: { title: 'Role updated', description: `The role ${input.name} was saved.` },
        failure: (error) => failureWithReason('Failed to update role', error),
        revalidate: ROLE_LISTS,
      }),
    deleteRole: (role: Role) =>
      run(() => apiRequest('DELETE', `/api/admin/roles/${role.id}`), {
        success: { title: 'Role deleted', description: `The role ${role.name} was deleted.` },
        failure: (error) => failureWithReason('Failed to delete role', error),
        revalidate: ROLE_LISTS,
      }),
    assignRole: (userId: number, roleId: number) =>
      run(() => apiRequest('POST', '/api/admin/user-roles', { userId, roleId }), {
        success: { title: 'Role assigned', description: 'The role was assigned to the user.' },
        failure: (error) => failureWithReason('Failed to assign role', error),
        revalidate: ROLE_LISTS,
      }),
    removeRole: (userId: number, roleId: number, roleName: string) =>
      run(() => apiRequest('DELETE', `/api/admin/user-roles/${userId}/${roleId}`), {
        success: { title: 'Role removed', description: `The role ${roleName} was removed from the user.` },
        failure: (error) => failureWithReason('Failed to remove role', error),
        revalidate: ROLE_LISTS,
      }),
    deleteUser: (user: AppUser) =>
      run(() => apiRequest('DELETE', `/api/admin/app-users/${user.id}`), {
        success: { title: 'User deleted', description: `${user.email} was deleted.` },
        failure: (error) => failureWithReason('Failed to delete user', error),
        revalidate: ROLE_LISTS,
      }),
  };
}
