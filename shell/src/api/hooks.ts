import useSWR from 'swr';
import {
  CACHE,
  type DashboardStatsResponse,
  type FeaturedItem,
  type NotificationSubscription,
  type WeeklyDigestStatus,
} from '@radar/contracts';
import { DASHBOARD_STATS_KEY, FEATURED_RECENT_KEY } from './paths.js';

/** GET /api/dashboard/stats: cached 5 minutes, refetched every 10 (spec 01 §9). */
export function useDashboardStats() {
  return useSWR<DashboardStatsResponse>(DASHBOARD_STATS_KEY, {
    dedupingInterval: CACHE.statsFreshMs,
    refreshInterval: CACHE.statsRefreshMs,
  });
}

/** GET /api/featured/recent?limit=6: the landing carousel. */
export function useFeaturedRecent() {
  return useSWR<FeaturedItem[]>(FEATURED_RECENT_KEY);
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
