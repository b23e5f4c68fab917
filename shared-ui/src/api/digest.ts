import { routes, type WeeklyDigestSignup } from '@radar/contracts';
import { callEndpoint, urlOf, useEndpoint } from './endpoint-client.js';

// The weekly digest subscription is changed from /notifications (the shell) and signed up for from /weekly-digest
// (the digest app), so its calls live here, once.

/** SWR key of the caller's digest subscription. */
export const DIGEST_STATUS_KEY = urlOf(routes.digest.status, {});

/** GET /api/weekly-digest/status, only when signed in. */
export function useDigestStatus(enabled: boolean) {
  return useEndpoint(routes.digest.status, enabled ? {} : null);
}

/** POST /api/weekly-digest/subscribe-authenticated. */
export const subscribeToWeeklyDigest = () => callEndpoint(routes.digest.subscribe);

/** POST /api/weekly-digest/unsubscribe-authenticated. */
export const unsubscribeFromWeeklyDigest = () => callEndpoint(routes.digest.unsubscribe);

/** POST /api/weekly-digest/signup for a visitor; throws ApiError on a non-2xx answer. */
export const signUpForWeeklyDigest = (body: WeeklyDigestSignup) => callEndpoint(routes.digest.signup, { body });
