import useSWR, { useSWRConfig } from 'swr';
import { ROLE_NAMES, routes, type User } from '@radar/contracts';
import { ApiError } from '../api/api-client.js';
import { callEndpoint, useEndpoint } from '../api/endpoint-client.js';
// The keys are plain strings there: the shell's entry starts these GETs before any shared module exists.
import { AUTH_USER_KEY, SESSION_USER_KEY } from '../api/prefetch.js';

export { AUTH_USER_KEY, SESSION_USER_KEY };

/** GET /api/auth/user answers 401 when signed out: that is "no user", not an error. */
async function fetchAuthUser(): Promise<User | null> {
  try {
    return await callEndpoint(routes.auth.user);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export interface Session {
  user: User | null;
  /** True until both lookups (when the second is needed) have finished. */
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Has the 'Admin' role. */
  isAdmin: boolean;
  /** Has the 'Moderator' or the 'Admin' role. */
  isModerator: boolean;
  /** Runs the lookups again (after sign-in or sign-out), in the same order. */
  refresh: () => Promise<void>;
}

export function hasRole(user: User | null | undefined, role: string): boolean {
  return Boolean(user?.roles.some((r) => r.name === role));
}

/**
 * The current user: GET /api/auth/session-user first; only when that finishes without a user,
 * GET /api/auth/user. No retries.
 */
export function useSession(): Session {
  const { mutate } = useSWRConfig();
  const first = useEndpoint(routes.auth.sessionUser, {}, { shouldRetryOnError: false });
  const firstDone = first.data !== undefined || first.error !== undefined;
  const needSecond = firstDone && !first.data?.user;
  const second = useSWR<User | null>(needSecond ? AUTH_USER_KEY : null, fetchAuthUser, { shouldRetryOnError: false });
  const secondDone = second.data !== undefined || second.error !== undefined;

  const user = first.data?.user ?? second.data ?? null;
  const isLoading = !firstDone || (needSecond && !secondDone);
  return {
    user,
    isLoading,
    isAuthenticated: user !== null,
    isAdmin: hasRole(user, ROLE_NAMES.admin),
    isModerator: hasRole(user, ROLE_NAMES.admin) || hasRole(user, ROLE_NAMES.moderator),
    // As on page load: the second lookup follows only when the first found no user. Otherwise the second's cached
    // answer is dropped (not fetched), so a later sign-out does not show a stale user from it.
    refresh: async () => {
      const answer = (await mutate(SESSION_USER_KEY)) as { user?: User | null } | undefined;
      if (answer?.user) await mutate(AUTH_USER_KEY, undefined, { revalidate: false });
      else await mutate(AUTH_USER_KEY);
    },
  };
}

/** Full name, or the e-mail when no name is set. */
export function displayNameOf(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName]
    .filter((part) => part && part.trim())
    .join(' ')
    .trim();
  return name || user.email;
}
