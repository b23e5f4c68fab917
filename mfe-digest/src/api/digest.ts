import { FEATURED_LIMIT, routes, type WeeklyDigestResponse } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';

/** GET /api/weekly-digest: the past 7 days. */
export function useWeeklyDigest() {
  return useEndpoint(routes.digest.weeklyDigest, {});
}

/** Featured items of the digest's week (startDate, endDate, limit=6); waits until the week is known. */
export function useFeaturedForWeek(range: Pick<WeeklyDigestResponse['weekRange'], 'start' | 'end'> | undefined) {
  return useEndpoint(routes.items.featuredTimeframe, range ? { query: { startDate: range.start, endDate: range.end, limit: FEATURED_LIMIT } } : null);
}
