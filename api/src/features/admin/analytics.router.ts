import { Router } from 'express';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { currentStatusAnalytics } from './analytics.repo.js';

/** GET /api/admin/current-status-analytics (Admin only): the top 12 products across both sources. */
export function createAnalyticsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/admin/current-status-analytics', requireAdmin, async (_req, res) => {
    res.json(await currentStatusAnalytics(ctx.db));
  });
  return router;
}
