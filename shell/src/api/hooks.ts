import { CACHE, FEATURED_LIMIT, SOURCES, endpoints } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';

/** GET /api/dashboard/stats?sources=roadmap&sources=messages: cached 5 minutes, refetched every 10 (spec 01 §7, §9). */
export function useDashboardStats() {
  return useEndpoint(
    endpoints.items.stats,
    { query: { sources: [...SOURCES] } },
    { dedupingInterval: CACHE.statsFreshMs, refreshInterval: CACHE.statsRefreshMs },
  );
}

/** GET /api/featured/recent?limit=6: the landing carousel. */
export function useFeaturedRecent() {
  return useEndpoint(endpoints.items.featuredRecent, { query: { limit: FEATURED_LIMIT } });
}
