import { ACTIVITY_PAGE_SIZE, CACHE, PAGE_SIZE, endpoints } from '@radar/contracts';
import { urlOf, useEndpoint } from '@radar/shared-ui';

/** SWR keys of the admin lists (their URLs); writes revalidate them by these exact strings or by prefix. */
export const ADMIN_KEYS = {
  roles: urlOf(endpoints.admin.roles, {}),
  users: urlOf(endpoints.admin.users, {}),
  userRoles: urlOf(endpoints.admin.userRoles, {}),
  syncHistory: urlOf(endpoints.admin.syncHistory, {}),
  contactSubmissions: urlOf(endpoints.admin.contactSubmissions, {}),
  analytics: urlOf(endpoints.admin.analytics, {}),
  productMappings: urlOf(endpoints.admin.productMappings, {}),
  activityStats: urlOf(endpoints.admin.moderatorActivityStats, {}),
  impersonation: urlOf(endpoints.admin.currentImpersonation, {}),
  effectiveRoles: urlOf(endpoints.auth.moderatorUserRoles, {}),
} as const;

/** Every page of the change history (the key carries ?page=…). */
export const isChangeHistoryKey = (key: unknown) => typeof key === 'string' && key.startsWith(endpoints.admin.changeHistory.path);
/** What a sync (a triggered one, or an applied held snapshot) can change: its history, the change history, analytics. */
export const isSyncAffectedKey = (key: unknown) => key === ADMIN_KEYS.syncHistory || key === ADMIN_KEYS.analytics || isChangeHistoryKey(key);

const SYNC_POLL_MS = 5000;

/**
 * GET /api/admin/roles: the role list and the page's access check (spec 02 §7: cached 5 minutes, no retry).
 * Errors are not retried, so a 401/403 turns into Access Denied at once.
 */
export function useRoles() {
  return useEndpoint(endpoints.admin.roles, {}, { dedupingInterval: CACHE.rolesFreshMs, shouldRetryOnError: false });
}

export const useAppUsers = () => useEndpoint(endpoints.admin.users, {});
export const useUserRoles = () => useEndpoint(endpoints.admin.userRoles, {});

/** Sync runs, newest first; polled every 5 s while one is still running (a scheduled job may have started it). */
export const useSyncHistory = () =>
  useEndpoint(endpoints.admin.syncHistory, {}, {
    refreshInterval: (latest) => (latest?.syncHistory.some((run) => run.status === 'running') ? SYNC_POLL_MS : 0),
  });

export const useChangeHistory = (page: number) =>
  useEndpoint(endpoints.admin.changeHistory, { query: { page, limit: PAGE_SIZE } }, { keepPreviousData: true });
export const useContactSubmissions = () => useEndpoint(endpoints.admin.contactSubmissions, {});
export const useAnalytics = () => useEndpoint(endpoints.admin.analytics, {});
export const useProductMappings = () => useEndpoint(endpoints.admin.productMappings, {});
export const useActivityStats = () => useEndpoint(endpoints.admin.moderatorActivityStats, {});
export const useActivities = (page: number) =>
  useEndpoint(endpoints.admin.moderatorActivities, { query: { page, limit: ACTIVITY_PAGE_SIZE } }, { keepPreviousData: true });

/** Impersonation status of this session (GET /api/dev/current-impersonation; 404 when the tool is turned off). */
export const useImpersonationStatus = () => useEndpoint(endpoints.admin.currentImpersonation, {});
/** The roles the server applies to this session now (refetched after every impersonation change). */
export const useEffectiveRoles = () => useEndpoint(endpoints.auth.moderatorUserRoles, {});
