import { loadRuntimeConfig } from './federation/runtime-config.js';
import { REMOTE_TIMEOUT_MS, registerRadarRemotes } from './federation/remotes.js';
import { EARLY_REMOTE_WAIT_MS, preloadRouteCode, prefetchRouteData } from './federation/preload.js';
import { isServerRendered } from './server/server-data.js';

// Runtime config first (where the remotes live), then the async boundary into the app. Nothing here may import a
// shared module statically: those are only available after the federation runtime has negotiated them. The current
// route's data and code are requested here too, so they download alongside the shell's chunks; the app mounts once
// a shell page's chunk, or the route's remote, is here as well, so the page renders without a loading frame.
prefetchRouteData(window.location);
void loadRuntimeConfig()
  .then((config) => {
    registerRadarRemotes(config);
    const bootstrap = import('./bootstrap.js');
    // A page rendered on the server is on screen already: its hydration waits for the remote as long as loading it may
    // take, since rendering without it would replace the server's page with a loading frame.
    const waitMs = isServerRendered() ? REMOTE_TIMEOUT_MS : EARLY_REMOTE_WAIT_MS;
    return Promise.all([bootstrap, preloadRouteCode(window.location.pathname, config, bootstrap, waitMs)]);
  })
  .then(
    ([{ mount }]) => mount(),
    () => import('./bootstrap.js').then(({ mount }) => mount()),
  );
