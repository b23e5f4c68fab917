import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { endpoints } from '@radar/contracts';
import { callEndpoint } from '../api/endpoint-client.js';
import { useToastStore } from '../toast/toast-store.js';

/** Sign out (spec 01 §4): POST /api/auth/logout, clear the client cache, go to /, confirm with a toast. */
export function useSignOut(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const toast = useToastStore((s) => s.toast);
  return useCallback(async () => {
    try {
      await callEndpoint(endpoints.auth.logout);
      // Drop every cached answer; mounted lookups (the session among them) fetch again.
      await mutate(() => true, undefined);
      navigate('/');
      toast({ title: 'Signed out successfully' });
    } catch {
      toast({ title: 'Error', description: 'Failed to sign out. Please try again.', variant: 'destructive' });
    }
  }, [mutate, navigate, toast]);
}
