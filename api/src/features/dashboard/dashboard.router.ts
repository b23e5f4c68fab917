import { Router } from 'express';
import { featuredRecentQuery, featuredTimeframeQuery, statsQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { InputError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { toFeaturedItem } from '../items/item-mapper.js';
import { createDashboardRepo } from './dashboard.repo.js';

/** Filter options and counts, dashboard stats and featured items: public reads. */
export function createDashboardRouter(ctx: AppContext): Router {
  const repo = createDashboardRepo(ctx.pool);
  const router = Router();

  router.get('/roadmap/filter-options', async (_req, res) => {
    res.json(await repo.filterOptions());
  });

  router.get('/analytics/filter-counts', async (_req, res) => {
    res.json(await repo.filterCounts());
  });

  router.get('/dashboard/stats', async (req, res) => {
    const { sources } = parse(statsQuery, req.query);
    res.json(await repo.stats(sources, ctx.clock.now()));
  });

  router.get('/featured/recent', async (req, res) => {
    const { limit } = parse(featuredRecentQuery, req.query);
    res.json((await repo.featured(limit)).map(toFeaturedItem));
  });

  router.get('/featured/timeframe', async (req, res) => {
    const q = parse(featuredTimeframeQuery, req.query);
    const start = new Date(q.startDate);
    const end = new Date(q.endDate);
    if (start > end) throw new InputError('endDate: endDate must not be before startDate', [{ path: 'endDate', message: 'endDate must not be before startDate' }]);
    res.json((await repo.featured(q.limit, { start, end })).map(toFeaturedItem));
  });

  return router;
}
