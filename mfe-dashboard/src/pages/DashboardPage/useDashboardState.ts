import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { routes } from '@radar/contracts';
import { useEndpoint, useSession } from '@radar/shared-ui';
import { useDashboardVisit } from '../../api/visit.js';
import {
  dashboardReducer,
  initialDashboardState,
  stateFromQuery,
  stateFromUrl,
  toListParams,
  withUrlState,
  type ViewQuery,
} from '../../state/dashboard-filters.js';

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
  // ?savedSearch=ID (Open on /notifications): the saved search's view is loaded once; saving writes over it.
  const savedSearchId = Number(searchParams.get('savedSearch')) || null;
  const saved = useEndpoint(routes.alerts.getSavedSearch, session.isAuthenticated && savedSearchId ? { params: { id: savedSearchId } } : null);
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (!saved.data || applied.current === saved.data.id) return;
    applied.current = saved.data.id;
    dispatch({ type: 'loadView', state: stateFromQuery(saved.data.query as ViewQuery) });
  }, [saved.data]);
  const loadingSaved = Boolean(savedSearchId) && (session.isLoading || (session.isAuthenticated && !saved.data && !saved.error));
  const stopEditing = useCallback(() => {
    applied.current = null;
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.delete('savedSearch');
        return next;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  useEffect(() => {
    const next = withUrlState(searchParams, state);
    if (next.toString() !== searchParams.toString()) setSearchParams((previous) => withUrlState(previous, state), { replace: true });
  }, [state, searchParams, setSearchParams]);

  const guest = !session.isLoading && !session.isAuthenticated;
  useEffect(() => {
    if (guest && state.filters.sinceLastVisit) dispatch({ type: 'setSinceLastVisit', sinceLastVisit: false });
  }, [guest, state.filters.sinceLastVisit]);

  const waiting =
    loadingSaved ||
    (state.filters.sinceLastVisit && (session.isLoading || !session.isAuthenticated || visit.status === 'idle' || visit.status === 'recording'));
  return {
    state,
    dispatch,
    signedIn: session.isAuthenticated,
    visit: visit.status === 'done' ? visit.visit : null,
    /** The saved search whose view is open (saving writes over it), or null. */
    editing: savedSearchId && saved.data?.id === savedSearchId ? saved.data : null,
    stopEditing,
    refreshEditing: () => saved.mutate(),
    /** The list query, or null while it must wait for the visit. */
    listParams: waiting ? null : toListParams(state),
  };
}
