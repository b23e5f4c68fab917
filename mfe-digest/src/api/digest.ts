import useSWR from 'swr';
import { FEATURED_LIMIT, type FeaturedItem, type ResultMessage, type WeeklyDigestResponse, type WeeklyDigestSignup } from '@radar/contracts';
import { apiRequest } from '@radar/shared-ui';

export const WEEKLY_DIGEST_PATH = '/api/weekly-digest';
export const FEATURED_TIMEFRAME_PATH = '/api/featured/timeframe';
export const DIGEST_SIGNUP_PATH = '/api/weekly-digest/signup';

type WeekRange = WeeklyDigestResponse['weekRange'];

/** GET /api/weekly-digest: the past 7 days. */
export function useWeeklyDigest() {
  return useSWR<WeeklyDigestResponse>(WEEKLY_DIGEST_PATH);
}

/** The featured/timeframe key for a week (spec 02 §7: startDate, endDate, limit=6). */
export function featuredTimeframeKey(range: Pick<WeekRange, 'start' | 'end'>): string {
  const query = new URLSearchParams({ startDate: range.start, endDate: range.end, limit: String(FEATURED_LIMIT) });
  return `${FEATURED_TIMEFRAME_PATH}?${query.toString()}`;
}

/** Featured items of the digest's week; waits until the week range is known. */
export function useFeaturedForWeek(range: WeekRange | undefined) {
  return useSWR<FeaturedItem[]>(range ? featuredTimeframeKey(range) : null);
}

/** POST /api/weekly-digest/signup for a visitor; throws ApiError on a non-2xx answer. */
export function signUpForDigest(body: WeeklyDigestSignup): Promise<ResultMessage> {
  return apiRequest<ResultMessage>('POST', DIGEST_SIGNUP_PATH, body);
}
