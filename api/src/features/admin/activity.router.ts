import { Router } from 'express';
import { z } from 'zod';
import { ACTIVITY_PAGE_SIZE } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createActivityRepo } from './activity.repo.js';

const activityQuery = z.object({
  page: z.coerce.number().int('page must be a whole number').min(1, 'page must be 1 or more').default(1),
  limit: z.coerce.number().int('limit must be a whole number').min(1, 'limit must be 1 or more').max(100, 'limit must be at most 100').default(ACTIVITY_PAGE_SIZE),
});

/** Reading the moderator activity log (Admin only); recording it is POST /api/moderator-activity elsewhere. */
export function createActivityRouter(ctx: AppContext): Router {
  const repo = createActivityRepo(ctx.db);
  const router = Router();

  router.get('/admin/moderator-activities', requireAdmin, async (req, res) => {
    const { page, limit } = parse(activityQuery, req.query);
    res.json(await repo.page(page, limit));
  });

  router.get('/admin/moderator-activity-stats', requireAdmin, async (_req, res) => {
    res.json(await repo.stats(ctx.clock.now()));
  });

  return router;
}
