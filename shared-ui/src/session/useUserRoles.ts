import { ROLE_NAMES, routes } from '@radar/contracts';
import { CACHE } from '../presentation/ui-constants.js';
import { urlOf, useEndpoint } from '../api/endpoint-client.js';

/** SWR key of GET /api/auth/user-roles; the impersonation tool revalidates it after a change. */
export const USER_ROLES_KEY = urlOf(routes.auth.userRoles, {});

export interface UserRoles {
  /** The caller's effective role names (empty for guests and while loading). */
  roleNames: string[];
  /** Moderator or Admin: may moderate items. */
  isModerator: boolean;
  isAdmin: boolean;
  isLoading: boolean;
}

/**
 * The caller's roles from GET /api/auth/user-roles, cached 5 minutes: the role names gate the
 * Moderate button. The server enforces every role regardless.
 */
export function useUserRoles(): UserRoles {
  const { data, isLoading } = useEndpoint(routes.auth.userRoles, {}, { dedupingInterval: CACHE.rolesFreshMs, shouldRetryOnError: false });
  const roleNames = (data ?? []).map((entry) => entry.role.name);
  const isAdmin = roleNames.includes(ROLE_NAMES.admin);
  return { roleNames, isAdmin, isModerator: isAdmin || roleNames.includes(ROLE_NAMES.moderator), isLoading };
}
