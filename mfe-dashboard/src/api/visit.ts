import { useEffect, useState } from 'react';
import type { DashboardVisitResponse } from '@radar/contracts';
import { callEndpoint, endpointTable } from '@radar/shared-ui';

export type DashboardVisitState =
  | { status: 'idle' }
  | { status: 'recording' }
  | { status: 'done'; visit: DashboardVisitResponse }
  | { status: 'failed' };

/**
 * Records the signed-in user's dashboard visit once per page view (POST /api/dashboard/visit) and keeps the answer:
 * the previous visit and how many items changed since. The server writes a visit at most every few minutes, so a
 * second mount (React's development double effects, a route change) does not move the baseline.
 */
export function useDashboardVisit(signedIn: boolean): DashboardVisitState {
  const [state, setState] = useState<DashboardVisitState>({ status: 'idle' });
  useEffect(() => {
    if (!signedIn) {
      setState({ status: 'idle' });
      return undefined;
    }
    let cancelled = false;
    setState({ status: 'recording' });
    endpointTable()
      .then((endpoints) => callEndpoint(endpoints.items.dashboardVisit))
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
  return state;
}
