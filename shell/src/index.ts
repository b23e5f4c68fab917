import { loadRuntimeConfig } from './federation/runtime-config.js';
import { registerRadarRemotes } from './federation/remotes.js';

// Runtime config first (where the remotes live), then the async boundary into the app. Nothing here may import a
// shared module: those are only available after the federation runtime has negotiated them.
void loadRuntimeConfig()
  .then((config) => registerRadarRemotes(config))
  .finally(() => import('./bootstrap.js'));
