import { useCallback, useEffect, useEffectEvent, useReducer, useRef } from 'react';
import { routes } from '@radar/contracts';
import { useEndpoint, useSession } from '@radar/shared-ui';
import { useDashboardVisit } from '../../api/visit.js';
import { dashboardReducer, initialDashboardState, type DashboardState } from '../../state/dashboard-filters.js';
import { stateFromQuery, stateFromUrl, toListParams, withUrlState, type ViewQuery } from '../../state/view-query.js';
import type { UrlParams } from './useUrlParams.js';

/**
 * The dashboard's view (filters, search, sort, page) and the signed-in user's visit. The view follows the URL both
 * ways: a change the user makes is a new history entry (typing in the search box replaces the current one, so Back
 * does not step through every word), and Back / Forward (or any other change of the URL) restore the view it holds. A "since my last visit" list waits until the visit is recorded, so the list
 * and the banner count from the same moment; a list by relevance waits for the session; a guest's sinceLastVisit,
 * relevance filter and relevance sort (an old bookmark, a shared link) are dropped.
 */
/** A view as the URL writes it: equal views, equal keys. */
const viewKey = (state: DashboardState) => withUrlState(new URLSearchParams(), state).toString();

export function useDashboardState([searchParams, setSearchParams]: UrlParams) {
  const [state, dispatch] = useReducer(dashboardReducer, searchParams, (params) => stateFromUrl(params, initialDashboardState));
  // The view the screen and the URL agree on, as its URL form.
  const agreed = useRef(viewKey(state));
  // The next view change replaces the history entry instead of adding one (views the page loads by itself).
  const replaceNext = useRef(false);
  const session = useSession();
  const { state: visit, preview: visitPreview } = useDashboardVisit(session.isAuthenticated);
  // ?savedSearch=ID (Open on /notifications): the saved search's view is loaded once; saving writes over it.
  const savedSearchId = Number(searchParams.get('savedSearch')) || null;
  const saved = useEndpoint(routes.alerts.getSavedSearch, session.isAuthenticated && savedSearchId ? { params: { id: savedSearchId } } : null);
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (!saved.data || applied.current === saved.data.id) return;
    applied.current = saved.data.id;
    replaceNext.current = true;
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

  // URL → view: the URL now holds another view (Back, Forward, a link): show it.
  const urlView = viewKey(stateFromUrl(searchParams));
  useEffect(() => {
    if (urlView === agreed.current) return;
    agreed.current = urlView;
    dispatch({ type: 'loadView', state: stateFromUrl(new URLSearchParams(urlView)) });
  }, [urlView]);

  // Not an effect dependency: a write must follow view changes only (after Back, the old view would otherwise be
  // written over the URL just restored).
  const writeUrl = useEffectEvent((view: DashboardState, replace: boolean) => setSearchParams((previous) => withUrlState(previous, view), { replace }));

  // View → URL: the view changed on the page: write it, as a new history entry unless only the search text changed.
  useEffect(() => {
    const view = viewKey(state);
    if (view === agreed.current) return;
    const before = stateFromUrl(new URLSearchParams(agreed.current));
    // Typing a search resets the page to 1: that is still only the search.
    const onlySearch = state.search !== before.search && viewKey({ ...state, search: '', page: 1 }) === viewKey({ ...before, search: '', page: 1 });
    const replace = replaceNext.current || onlySearch;
    agreed.current = view;
    replaceNext.current = false;
    writeUrl(state, replace);
  }, [state]);

  const guest = !session.isLoading && !session.isAuthenticated;
  // The relevance filter and sort read the tenants' usage: the api refuses them to guests.
  const byRelevance = state.filters.relevance.length > 0 || state.sortField === 'relevance';
  const signedInOnly = state.filters.sinceLastVisit || byRelevance;
  useEffect(() => {
    if (!guest || !signedInOnly) return;
    replaceNext.current = true;
    dispatch({ type: 'dropSignedInOnly' });
  }, [guest, signedInOnly]);

  const waiting =
    loadingSaved ||
    (byRelevance && (session.isLoading || !session.isAuthenticated)) ||
    (state.filters.sinceLastVisit && (session.isLoading || !session.isAuthenticated || visit.status === 'idle' || visit.status === 'recording'));
  return {
    state,
    dispatch,
    signedIn: session.isAuthenticated,
    // The recorded visit's answer; until it comes, what the server render read (the banner is in the first paint).
    visit: visit.status === 'done' ? visit.visit : visitPreview,
    /** The saved search whose view is open (saving writes over it), or null. */
    editing: savedSearchId && saved.data?.id === savedSearchId ? saved.data : null,
    stopEditing,
    refreshEditing: () => saved.mutate(),
    /** The list query, or null while it must wait for the visit. */
    listParams: waiting ? null : toListParams(state),
  };
}
