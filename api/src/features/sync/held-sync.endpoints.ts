import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';

/**
 * Deciding on a sync the snapshot guard held (admin only): POST /api/admin/sync-history/{id}/apply applies exactly the
 * stored snapshot as a new run; POST …/discard drops it. 404 when the run was not held, 409 when it was decided already
 * or a newer snapshot of the source superseded it (or a sync of the source is running).
 */
export function createHeldSyncEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    implement(endpoints.sync.applyHeldSync, ({ params, auth }) => ctx.services.heldSync.apply(params.id, auth.user.id)),
    implement(endpoints.sync.discardHeldSync, ({ params, auth }) => ctx.services.heldSync.discard(params.id, auth.user.id)),
  ];
}
