import { useEffect, useReducer } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '@radar/shared-ui';
import { useDashboardVisit } from '../../api/visit.js';
import { dashboardReducer, initialDashboardState, stateFromUrl, toListParams, withUrlState } from '../../state/dashboard-filters.js';

/**
 * The dashboard's filter state, its URL-kept part (sinceLastVisit, includeRemoved, releaseMoved, the most-slipped
 * sort) and the signed-in user's visit. A "since my last visit" list waits until the visit is recorded, so the list
 * and the banner count from the same moment; a guest's sinceLastVisit (an old bookmark) is dropped.
 */
export function useDashboardState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [state, dispatch] = useReducer(dashboardReducer, searchParams, (params) => stateFromUrl(params, initialDashboardState));
  const session = useSession();
  const visit = useDashboardVisit(session.isAuthenticated);

  useEffect(() => {
    const next = withUrlState(searchParams, state);
    if (next.toString() !== searchParams.toString()) setSearchParams((previous) => withUrlState(previous, state), { replace: true });
  }, [state, searchParams, setSearchParams]);

  const guest = !session.isLoading && !session.isAuthenticated;
  useEffect(() => {
    if (guest && state.filters.sinceLastVisit) dispatch({ type: 'setSinceLastVisit', sinceLastVisit: false });
  }, [guest, state.filters.sinceLastVisit]);

  const waiting = state.filters.sinceLastVisit && (session.isLoading || !session.isAuthenticated || visit.status === 'idle' || visit.status === 'recording');
  return {
    state,
    dispatch,
    signedIn: session.isAuthenticated,
    visit: visit.status === 'done' ? visit.visit : null,
    /** The list query, or null while it must wait for the visit. */
    listParams: waiting ? null : toListParams(state),
  };
}
