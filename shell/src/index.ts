import { loadRuntimeConfig } from './federation/runtime-config.js';
import { registerRadarRemotes } from './federation/remotes.js';
import { preloadRouteCode, prefetchRouteData } from './federation/preload.js';

// Runtime config first (where the remotes live), then the async boundary into the app. Nothing here may import a
// shared module: those are only available after the federation runtime has negotiated them. The current route's
// data and code are requested here too, so they download alongside the shell's chunks.
prefetchRouteData(window.location.pathname);
void loadRuntimeConfig()
  .then((config) => {
    registerRadarRemotes(config);
    preloadRouteCode(window.location.pathname, config);
  })
  .finally(() => import('./bootstrap.js'));
