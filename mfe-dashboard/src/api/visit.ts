import { useEffect, useState } from 'react';
import { useSWRConfig } from 'swr';
import { routes, type DashboardVisitResponse } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';

export type DashboardVisitState = { status: 'idle' } | { status: 'recording' } | { status: 'done'; visit: DashboardVisitResponse } | { status: 'failed' };

/**
 * Records the signed-in user's dashboard visit once per page view (POST /api/dashboard/visit) and keeps the answer:
 * the previous visit and how many items changed since. The server writes a visit at most every few minutes, so a
 * second mount (React's development double effects, a route change) does not move the baseline.
 *
 * `preview` is what that POST would answer, as the server render read it (the page data, under the POST's path):
 * the banner shows it from the first paint, and the POST's own answer takes its place when it comes. It is not a
 * recorded visit, so a "since my last visit" list still waits for `state`.
 */
export function useDashboardVisit(signedIn: boolean): { state: DashboardVisitState; preview: DashboardVisitResponse | null } {
  // The answer of the request in flight or done; 'recording' until it arrives, nothing for a guest.
  const [state, setState] = useState<DashboardVisitState>({ status: 'recording' });
  const { fallback } = useSWRConfig();
  const preview = (fallback as Record<string, DashboardVisitResponse | undefined> | undefined)?.[routes.items.dashboardVisit.path] ?? null;
  useEffect(() => {
    if (!signedIn) return undefined;
    let cancelled = false;
    callEndpoint(routes.items.dashboardVisit)
      .then((visit) => {
        if (!cancelled) setState({ status: 'done', visit });
      })
      .catch(() => {
        if (!cancelled) setState({ status: 'failed' });
      });
    return () => {
      cancelled = true;
    };
  }, [signedIn]);
  return signedIn ? { state, preview } : { state: { status: 'idle' }, preview: null };
}
