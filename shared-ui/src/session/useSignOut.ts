import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { routes } from '@radar/contracts';
import { callEndpoint } from '../api/endpoint-client.js';
import { useToastStore } from '../toast/toast-store.js';

/** Ends the session(s) on the server, clears the client cache, goes to / and confirms with a toast. */
function useEndSession(end: () => Promise<unknown>, done: string, failed: string): () => Promise<void> {
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const toast = useToastStore((s) => s.toast);
  return useCallback(async () => {
    try {
      await end();
      // Drop every cached answer; mounted lookups (the session among them) fetch again.
      await mutate(() => true, undefined);
      navigate('/');
      toast({ title: done });
    } catch {
      toast({ title: 'Error', description: failed, variant: 'destructive' });
    }
  }, [end, done, failed, mutate, navigate, toast]);
}

const logout = () => callEndpoint(routes.auth.logout);
const logoutEverywhere = () => callEndpoint(routes.auth.logoutEverywhere);

/** Sign out: POST /api/auth/logout, clear the client cache, go to /, 'Signed out successfully'. */
export function useSignOut(): () => Promise<void> {
  return useEndSession(logout, 'Signed out successfully', 'Failed to sign out. Please try again.');
}

/** "Sign out everywhere" on /profile: ends every session of the account, this one included. */
export function useSignOutEverywhere(): () => Promise<void> {
  return useEndSession(logoutEverywhere, 'Signed out on every device', 'Failed to sign out everywhere. Please try again.');
}
