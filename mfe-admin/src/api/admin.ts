import { ACTIVITY_PAGE_SIZE, PAGE_SIZE, routes } from '@radar/contracts';
import { CACHE, urlOf, useEndpoint } from '@radar/shared-ui';

/** SWR keys of the admin lists (their URLs); writes revalidate them by these exact strings or by prefix. */
export const ADMIN_KEYS = {
  roles: urlOf(routes.admin.roles, {}),
  users: urlOf(routes.admin.users, {}),
  userRoles: urlOf(routes.admin.userRoles, {}),
  syncHistory: urlOf(routes.sync.syncHistory, {}),
  contactSubmissions: urlOf(routes.admin.contactSubmissions, {}),
  analytics: urlOf(routes.admin.analytics, {}),
  productMappings: urlOf(routes.admin.productMappings, {}),
  activityStats: urlOf(routes.admin.moderatorActivityStats, {}),
  impersonation: urlOf(routes.admin.currentImpersonation, {}),
  effectiveRoles: urlOf(routes.auth.moderatorUserRoles, {}),
} as const;

/** Every page of the change history (the key carries ?page=…). */
export const isChangeHistoryKey = (key: unknown) => typeof key === 'string' && key.startsWith(routes.sync.changeHistory.path);
/** What a sync (a triggered one, or an applied held snapshot) can change: its history, the change history, analytics. */
export const isSyncAffectedKey = (key: unknown) => key === ADMIN_KEYS.syncHistory || key === ADMIN_KEYS.analytics || isChangeHistoryKey(key);

const SYNC_POLL_MS = 5000;

/**
 * GET /api/admin/roles: the role list and the page's access check (cached 5 minutes, no retry).
 * Errors are not retried, so a 401/403 turns into Access Denied at once.
 */
export function useRoles() {
  return useEndpoint(routes.admin.roles, {}, { dedupingInterval: CACHE.rolesFreshMs, shouldRetryOnError: false });
}

export const useAppUsers = () => useEndpoint(routes.admin.users, {});
export const useUserRoles = () => useEndpoint(routes.admin.userRoles, {});

/** Sync runs, newest first; polled every 5 s while one is still running (a scheduled job may have started it). */
export const useSyncHistory = () =>
  useEndpoint(
    routes.sync.syncHistory,
    {},
    {
      refreshInterval: (latest) => (latest?.syncHistory.some((run) => run.status === 'running') ? SYNC_POLL_MS : 0),
    },
  );

export const useChangeHistory = (page: number) => useEndpoint(routes.sync.changeHistory, { query: { page, limit: PAGE_SIZE } }, { keepPreviousData: true });
export const useContactSubmissions = () => useEndpoint(routes.admin.contactSubmissions, {});
export const useAnalytics = () => useEndpoint(routes.admin.analytics, {});
export const useProductMappings = () => useEndpoint(routes.admin.productMappings, {});
export const useActivityStats = () => useEndpoint(routes.admin.moderatorActivityStats, {});
export const useActivities = (page: number) =>
  useEndpoint(routes.admin.moderatorActivities, { query: { page, limit: ACTIVITY_PAGE_SIZE } }, { keepPreviousData: true });

/** Impersonation status of this session (GET /api/dev/current-impersonation; 404 when the tool is turned off). */
export const useImpersonationStatus = () => useEndpoint(routes.admin.currentImpersonation, {});
/** The roles the server applies to this session now (refetched after every impersonation change). */
export const useEffectiveRoles = () => useEndpoint(routes.auth.moderatorUserRoles, {});
