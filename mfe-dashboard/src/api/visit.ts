import { useEffect, useState } from 'react';
import { routes, type DashboardVisitResponse } from '@radar/contracts';
import { callEndpoint } from '@radar/shared-ui';

export type DashboardVisitState = { status: 'idle' } | { status: 'recording' } | { status: 'done'; visit: DashboardVisitResponse } | { status: 'failed' };

/**
 * Records the signed-in user's dashboard visit once per page view (POST /api/dashboard/visit) and keeps the answer:
 * the previous visit and how many items changed since. The server writes a visit at most every few minutes, so a
 * second mount (React's development double effects, a route change) does not move the baseline.
 */
export function useDashboardVisit(signedIn: boolean): DashboardVisitState {
  // The answer of the request in flight or done; 'recording' until it arrives, nothing for a guest.
  const [state, setState] = useState<DashboardVisitState>({ status: 'recording' });
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
  return signedIn ? state : { status: 'idle' };
}
