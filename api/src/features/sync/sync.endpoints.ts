import type { AppContext } from '../../app-context.js';
import type { EndpointImplementation } from '../../http/endpoints.js';
import { createHeldSyncEndpoints } from './held-sync.endpoints.js';
import { createSyncRunsEndpoints } from './sync-runs.endpoints.js';

/** The sync group, Admin only: run a sync now, Sync History, apply or discard a held snapshot, Change History. */
export function createSyncEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [...createSyncRunsEndpoints(ctx), ...createHeldSyncEndpoints(ctx)];
}
