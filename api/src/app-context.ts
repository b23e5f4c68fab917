import type { BaseDeps } from './deps.js';
import type { Services } from './services.js';

/** What routers and jobs are built from. */
export interface AppContext extends BaseDeps {
  services: Services;
}
