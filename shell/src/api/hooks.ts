import useSWR from 'swr';
import {
  CACHE,
  FEATURED_LIMIT,
  type DashboardStatsResponse,
  type FeaturedItem,
  type NotificationSubscription,
  type WeeklyDigestStatus,
} from '@radar/contracts';

/** GET /api/dashboard/stats: cached 5 minutes, refetched every 10 (spec 01 §9). */
export function useDashboardStats() {
  return useSWR<DashboardStatsResponse>('/api/dashboard/stats', {
    dedupingInterval: CACHE.statsFreshMs,
    refreshInterval: CACHE.statsRefreshMs,
  });
}

/** GET /api/featured/recent?limit=6: the landing carousel. */
export function useFeaturedRecent() {
  return useSWR<FeaturedItem[]>(`/api/featured/recent?limit=${FEATURED_LIMIT}`);
}

export const DIGEST_STATUS_KEY = '/api/weekly-digest/status';
export const SUBSCRIPTIONS_KEY = '/api/notification-subscriptions';

/** GET /api/weekly-digest/status, only when signed in. */
export function useDigestStatus(enabled: boolean) {
  return useSWR<WeeklyDigestStatus>(enabled ? DIGEST_STATUS_KEY : null);
}

/** GET /api/notification-subscriptions, only when signed in. */
export function useNotificationSubscriptions(enabled: boolean) {
  return useSWR<NotificationSubscription[]>(enabled ? SUBSCRIPTIONS_KEY : null);
}
