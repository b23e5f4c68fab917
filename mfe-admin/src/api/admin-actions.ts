import { useSWRConfig } from 'swr';
import { serverMessageOf, useToast, type ToastOptions } from '@radar/shared-ui';
import { ADMIN_KEYS } from './admin.js';

/** The server's own message when it sent one, else the client error text ('<status>: <body>'). */
export function errorMessageOf(error: unknown): string {
  return serverMessageOf(error) ?? (error instanceof Error ? error.message : String(error));
}

/** Admin failure texts that end in '...' (docs/product/admin.md): the server's reason when it gave one (e.g. the last-admin guard). */
export function failureWithReason(prefix: string, error: unknown): string {
  const reason = serverMessageOf(error);
  return reason ? `${prefix}: ${reason}` : `${prefix}. Please try again.`;
}

export interface AdminActionOptions<T> {
  /** Success toast, built from the answer when a function. */
  success?: ToastOptions | ((result: T) => ToastOptions);
  /** Description of the destructive failure toast. */
  failure: (error: unknown) => string;
  /** Title of the failure toast; 'Error' unless docs/product/admin.md names another. */
  failureTitle?: string;
  /** SWR keys (or key predicates) revalidated after success. */
  revalidate?: Array<string | ((key: unknown) => boolean)>;
}

/** Runs an admin write: toasts the outcome and revalidates the lists it changed. Resolves to undefined on failure. */
export function useAdminAction() {
  const { toast } = useToast();
  const { mutate } = useSWRConfig();
  return async function run<T>(request: () => Promise<T>, options: AdminActionOptions<T>): Promise<{ ok: true; result: T } | { ok: false; error: unknown }> {
    try {
      const result = await request();
      await Promise.all((options.revalidate ?? []).map((key) => mutate(key)));
      if (options.success) toast(typeof options.success === 'function' ? options.success(result) : options.success);
      return { ok: true, result };
    } catch (error) {
      toast({ title: options.failureTitle ?? 'Error', description: options.failure(error), variant: 'destructive' });
      return { ok: false, error };
    }
  };
}

/** Lists that change when roles, users or assignments change. */
export const ROLE_LISTS = [ADMIN_KEYS.roles, ADMIN_KEYS.users, ADMIN_KEYS.userRoles];
