import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { routes } from '@radar/contracts';
import { callEndpoint } from '../api/endpoint-client.js';
import { useToastStore } from '../toast/toast-store.js';

/** Ends the session(s) on the server, clears the client cache, goes to / and confirms with a toast. */
function useEndSession<A>(end: (arg?: A) => Promise<unknown>, done: string, failed: string): (arg?: A) => Promise<void> {
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const toast = useToastStore((s) => s.toast);
  return useCallback(
    async (arg?: A) => {
      try {
        await end(arg);
        // Drop every cached answer; mounted lookups (the session among them) fetch again.
        await mutate(() => true, undefined);
        navigate('/');
        toast({ title: done });
      } catch {
        toast({ title: 'Error', description: failed, variant: 'destructive' });
      }
    },
    [end, done, failed, mutate, navigate, toast],
  );
}

const logout = () => callEndpoint(routes.auth.logout);
const logoutEverywhere = (opts: { revokeTokens?: boolean } = {}) => callEndpoint(routes.auth.logoutEverywhere, { body: opts });

/** Sign out: POST /api/auth/logout, clear the client cache, go to /, 'Signed out successfully'. */
export function useSignOut(): () => Promise<void> {
  return useEndSession(logout, 'Signed out successfully', 'Failed to sign out. Please try again.');
}

/**
 * "Sign out everywhere" on /profile: ends every session of the account, this one included, and with
 * `revokeTokens` every personal API token as well.
 */
export function useSignOutEverywhere(): (opts?: { revokeTokens?: boolean }) => Promise<void> {
  return useEndSession<{ revokeTokens?: boolean } | undefined>(
    logoutEverywhere,
    'Signed out on every device',
    'Failed to sign out everywhere. Please try again.',
  );
}
