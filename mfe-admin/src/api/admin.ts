import useSWR from 'swr';
import type { z } from 'zod';
import {
  ACTIVITY_PAGE_SIZE,
  CACHE,
  PAGE_SIZE,
  type AppUser,
  type ChangeHistoryListResponse,
  type ContactSubmission,
  type CurrentStatusAnalytics,
  type ModeratorActivityStats,
  type ProductMapping,
  type Role,
  type SyncHistoryRecord,
  type UserRoleAssignment,
  type moderatorActivitiesResponse,
} from '@radar/contracts';

/** SWR keys of the admin lists; mutations revalidate them by these exact strings. */
export const ADMIN_KEYS = {
  roles: '/api/admin/roles',
  users: '/api/admin/app-users',
  userRoles: '/api/admin/user-roles',
  syncHistory: '/api/admin/sync-history',
  contactSubmissions: '/api/admin/contact-submissions',
  analytics: '/api/admin/current-status-analytics',
  productMappings: '/api/admin/product-mappings',
  activityStats: '/api/admin/moderator-activity-stats',
} as const;

const SYNC_POLL_MS = 5000;

export const changeHistoryKey = (page: number) => `/api/admin/change-history?page=${page}&limit=${PAGE_SIZE}`;
export const activitiesKey = (page: number) => `/api/admin/moderator-activities?page=${page}&limit=${ACTIVITY_PAGE_SIZE}`;

/**
 * GET /api/admin/roles: the role list and the page's access check (spec 02 §7: cached 5 minutes, no retry).
 * Errors are not retried, so a 401/403 turns into Access Denied at once.
 */
export function useRoles() {
  return useSWR<Role[]>(ADMIN_KEYS.roles, { dedupingInterval: CACHE.rolesFreshMs, shouldRetryOnError: false });
}

export const useAppUsers = () => useSWR<AppUser[]>(ADMIN_KEYS.users);
export const useUserRoles = () => useSWR<UserRoleAssignment[]>(ADMIN_KEYS.userRoles);
/** Sync runs, newest first; polled every 5 s while one is still running (a scheduled job may have started it). */
export const useSyncHistory = () =>
  useSWR<{ syncHistory: SyncHistoryRecord[] }>(ADMIN_KEYS.syncHistory, {
    refreshInterval: (latest) => (latest?.syncHistory.some((run) => run.status === 'running') ? SYNC_POLL_MS : 0),
  });
export const useChangeHistory = (page: number) => useSWR<ChangeHistoryListResponse>(changeHistoryKey(page), { keepPreviousData: true });
export const useContactSubmissions = () => useSWR<ContactSubmission[]>(ADMIN_KEYS.contactSubmissions);
export const useAnalytics = () => useSWR<CurrentStatusAnalytics>(ADMIN_KEYS.analytics);
export const useProductMappings = () => useSWR<ProductMapping[]>(ADMIN_KEYS.productMappings);
export const useActivityStats = () => useSWR<ModeratorActivityStats>(ADMIN_KEYS.activityStats);
export const useActivities = (page: number) =>
  useSWR<z.infer<typeof moderatorActivitiesResponse>>(activitiesKey(page), { keepPreviousData: true });
