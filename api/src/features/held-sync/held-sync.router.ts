import { Router } from 'express';
import { heldSyncParams, type ApplyHeldSyncResponse, type DiscardHeldSyncResponse } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';

/**
 * Deciding on a sync the snapshot guard held (admin only): POST /api/admin/sync-history/{id}/apply applies exactly the
 * stored snapshot as a new run; POST …/discard drops it. 404 when the run was not held, 409 when it was decided already
 * or a newer snapshot of the source superseded it (or a sync of the source is running).
 */
export function createHeldSyncRouter(ctx: AppContext): Router {
  const router = Router();

  router.post('/admin/sync-history/:id/apply', requireAdmin, async (req, res) => {
    const { id } = parse(heldSyncParams, req.params);
    const body: ApplyHeldSyncResponse = await ctx.services.heldSync.apply(id, req.auth!.user.id);
    res.json(body);
  });

  router.post('/admin/sync-history/:id/discard', requireAdmin, async (req, res) => {
    const { id } = parse(heldSyncParams, req.params);
    const body: DiscardHeldSyncResponse = await ctx.services.heldSync.discard(id, req.auth!.user.id);
    res.json(body);
  });

  return router;
}
