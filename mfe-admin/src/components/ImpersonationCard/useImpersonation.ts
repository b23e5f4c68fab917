import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError, USER_ROLES_KEY, useSession, useToast } from '@radar/shared-ui';
import { ADMIN_KEYS, useImpersonationStatus } from '../../api/admin.js';
import { adminWrites } from '../../api/admin-writes.js';

export type ImpersonationChoice = 'None' | 'Admin' | 'Moderator' | 'User';
export const IMPERSONATION_OPTIONS: ImpersonationChoice[] = ['None', 'Admin', 'Moderator', 'User'];

export type ImpersonationAvailability = 'loading' | 'available' | 'turned-off' | 'not-allowed' | 'error';

/**
 * The impersonation tool: its status, whether the server offers it (the dev routes answer 404 when it is turned
 * off), and the two changes. After a change every role list is fetched again.
 */
export function useImpersonation() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  const session = useSession();
  const status = useImpersonationStatus();
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

  // Every role list, and the admin page's access check (the roles call), follow the new effective roles.
  const refetchRoles = () =>
    Promise.all([mutate(ADMIN_KEYS.impersonation), mutate(ADMIN_KEYS.effectiveRoles), mutate(USER_ROLES_KEY), mutate(ADMIN_KEYS.roles), session.refresh()]);

  const change = async (request: () => Promise<{ message: string }>, failure: string) => {
    setBusy(true);
    try {
      const answer = await request();
      await refetchRoles();
      toast({ title: 'Impersonation updated', description: answer.message });
    } catch {
      toast({ title: 'Error', description: failure, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  /** Choosing None clears the impersonation (POST with role null). */
  const choose = (choice: ImpersonationChoice) =>
    change(
      () => adminWrites.impersonate(choice === 'None' ? null : choice),
      choice === 'None' ? 'Failed to clear impersonation' : 'Failed to impersonate role',
    );
  const clear = () => change(() => adminWrites.clearImpersonation(), 'Failed to clear impersonation');

  return { status: status.data, availability, busy, choose, clear };
}
