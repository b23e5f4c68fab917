import { Router } from 'express';
import { itemListQuery, type ItemListResponse } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createExportHandler } from './export-handler.js';
import { createItemsRepo } from './items.repo.js';

/** GET /api/unified/items (the dashboard list) and GET /api/dashboard/export (the same filters as CSV). */
export function createItemsRouter(ctx: AppContext): Router {
  const repo = createItemsRepo(ctx.pool);
  const router = Router();

  router.get('/unified/items', async (req, res) => {
    const q = parse(itemListQuery, req.query);
    const includeNotes = isModeratorOrAdmin(req.auth);
    const { items, total } = await repo.listJson(q, ctx.clock.now(), { includeNotes });
    // The ItemListResponse shape, written from items the repo serialised (and cached) one by one: the same bytes
    // as res.json(body) would send, without serialising 50 items again on every request.
    const tail: Omit<ItemListResponse, 'items'> = { total, totalPages: Math.ceil(total / q.limit), page: q.page };
    res.type('application/json').send(`{"items":[${items.join(',')}],${JSON.stringify(tail).slice(1)}`);
  });

  router.get('/dashboard/export', createExportHandler(ctx, repo));

  return router;
}
