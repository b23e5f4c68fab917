import { routes } from '@radar/contracts';
import { CACHE, useEndpoint } from '@radar/shared-ui';
import { DASHBOARD_STATS_ARGS, FEATURED_RECENT_ARGS } from './paths.js';

/** GET /api/dashboard/stats?sources=roadmap&sources=messages: cached 5 minutes, refetched every 10. */
export function useDashboardStats() {
  return useEndpoint(routes.items.stats, DASHBOARD_STATS_ARGS, { dedupingInterval: CACHE.statsFreshMs, refreshInterval: CACHE.statsRefreshMs });
}

/** GET /api/featured/recent?limit=6: the landing carousel. */
export function useFeaturedRecent() {
  return useEndpoint(routes.items.featuredRecent, FEATURED_RECENT_ARGS);
}
