import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { ImpersonationStatus } from '@radar/contracts';
import { ApiError, apiRequest, useSession, useToast } from '@radar/shared-ui';

export const IMPERSONATION_KEY = '/api/dev/current-impersonation';
export const MODERATOR_ROLES_KEY = '/api/moderator/user/roles';
export const AUTH_USER_ROLES_KEY = '/api/auth/user-roles';

export type ImpersonationChoice = 'None' | 'Admin' | 'Moderator' | 'User';
export const IMPERSONATION_OPTIONS: ImpersonationChoice[] = ['None', 'Admin', 'Moderator', 'User'];

export type ImpersonationAvailability = 'loading' | 'available' | 'turned-off' | 'not-allowed' | 'error';

/**
 * The impersonation tool: its status, whether the server offers it (the dev routes answer 404 when it is turned
 * off), and the two changes. After a change every role list is fetched again (spec 02 §4).
 */
export function useImpersonation() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const session = useSession();
  const status = useSWR<ImpersonationStatus>(IMPERSONATION_KEY);
  const [busy, setBusy] = useState(false);

  const availability: ImpersonationAvailability = status.error
    ? status.error instanceof ApiError && status.error.status === 404
      ? 'turned-off'
      : status.error instanceof ApiError && (status.error.status === 401 || status.error.status === 403)
        ? 'not-allowed'
        : 'error'
    : status.data
      ? 'available'
      : 'loading';

  const refetchRoles = () => Promise.all([mutate(IMPERSONATION_KEY), mutate(MODERATOR_ROLES_KEY), mutate(AUTH_USER_ROLES_KEY), session.refresh()]);

  const change = async (request: () => Promise<{ message?: string } | undefined>, failure: string) => {
    setBusy(true);
    try {
      const answer = await request();
      await refetchRoles();
      toast({ title: 'Impersonation updated', description: answer?.message });
    } catch {
      toast({ title: 'Error', description: failure, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  /** Choosing None clears the impersonation (POST with role null). */
  const choose = (choice: ImpersonationChoice) =>
    change(
      () => apiRequest('POST', '/api/dev/impersonate-role', { role: choice === 'None' ? null : choice }),
      choice === 'None' ? 'Failed to clear impersonation' : 'Failed to impersonate role',
    );
  const clear = () => change(() => apiRequest('DELETE', '/api/dev/clear-impersonation'), 'Failed to clear impersonation');

  return { status: status.data, availability, busy, choose, clear };
}
