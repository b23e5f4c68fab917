import { loadShare } from '@module-federation/enhanced/runtime';
import { DASHBOARD_URL_STATE_KEYS, DEFAULT_LIST_PARAMS, itemListUrl, type RuntimeConfig } from '@radar/contracts';
import { prefetchGet, prefetchSession } from '@radar/shared-ui/prefetch';
import { DASHBOARD_STATS_KEY, FEATURED_RECENT_KEY } from '../api/paths.js';
import { loadPage, routeOf } from '../routes.js';
import { preloadRemoteApp } from './early-remote.js';
import { REMOTE_TIMEOUT_MS, loadRemoteAppEarly } from './remotes.js';

/** How long the first render waits for the current route's remote once the shell's own code is ready (preloadRouteCode). */
export const EARLY_REMOTE_WAIT_MS = 1000;

// What the first screen of a route needs, started by the entry (index.ts) before React and the shared modules have
// loaded, so the shell's chunks, the route's code and its data all download at once instead of one after another.

/** The GETs the route's first screen makes (taken by apiFetch when the screen asks; see shared-ui's prefetch.ts). */
export function prefetchRouteData({ pathname, search }: Pick<Location, 'pathname' | 'search'>): void {
  prefetchSession();
  const { page, remote } = routeOf(pathname);
  if (page === 'landing') [DASHBOARD_STATS_KEY, FEATURED_RECENT_KEY].forEach((url) => void prefetchGet(url).catch(() => undefined));
  // The dashboard opens on its default list unless its URL keeps other choices (deep links to an item only add a
  // dialog); with those it asks for another list, which it fetches itself.
  const params = new URLSearchParams(search);
  if (remote === 'dashboard' && !DASHBOARD_URL_STATE_KEYS.some((key) => params.has(key))) {
    void prefetchGet(itemListUrl(DEFAULT_LIST_PARAMS)).catch(() => undefined);
  }
}

/**
 * The route's page chunk, or its remote's manifest, remoteEntry.js and the chunks of its ./App, plus the extra part
 * of the shell's MUI that every remote screen uses (tables, text fields, menus; Admin also its tabs). The remote's own copies of shared
 * modules are not fetched: the shell's are used. Resolves when a page chunk is here, or the remote's App has loaded
 * (at most `waitMs` after `shellReady`); never rejects: failures are left to the real load, which shows them.
 */
export function preloadRouteCode(pathname: string, config: RuntimeConfig, shellReady: Promise<unknown>, waitMs = EARLY_REMOTE_WAIT_MS): Promise<void> {
  const { page, remote } = routeOf(pathname);
  if (remote) {
    preloadRemoteApp(config.remotes[remote], REMOTE_TIMEOUT_MS);
    void loadShare('@radar/vendor-mui-extra').catch(() => undefined);
    // Admin's first screen is tabs (the dashboard's opens its dialogs later: it does not wait for this part).
    if (remote === 'admin') void loadShare('@radar/vendor-mui-more').catch(() => undefined);
    // The remote's App itself, so the first render shows it. A slow remote holds the page back at most
    // EARLY_REMOTE_WAIT_MS beyond the shell's own readiness (counted from there: on a busy machine the shell is late
    // too); after that the shell renders with its loading state, as before.
    const waited = shellReady.then(
      () => new Promise<void>((resolve) => setTimeout(resolve, waitMs)),
      () => undefined,
    );
    return Promise.race([loadRemoteAppEarly(remote), waited]);
  }
  return page
    ? loadPage(page).then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}
