import { Router } from 'express';
import { roadmapItemIdParams, sourceItemsQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { NotFoundError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';
import { createSourceItemsRepo } from './source-items.repo.js';

/** Roadmap reads owned by ingestion: the digest list, an item's change history and the messages that name it. */
export function createRoadmapItemsRouter(ctx: AppContext): Router {
  const repo = createSourceItemsRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);
  const router = Router();

  router.get('/roadmap/items', async (req, res) => {
    const q = parse(sourceItemsQuery, req.query);
    const { rows, ...page } = await repo.list('roadmap', { ...q, now: ctx.clock.now() });
    const notes = isModeratorOrAdmin(req.auth);
    res.json({ ...page, items: rows.map((r) => toUnifiedItem(r, { includeNotes: notes })) });
  });

  router.get('/roadmap/items/:itemId/history', async (req, res) => {
    const { itemId } = parse(roadmapItemIdParams, req.params);
    const item = await repo.find('roadmap', itemId);
    if (!item) throw new NotFoundError(`Roadmap item ${itemId} not found`);
    res.json(await history.forItem(item.id));
  });

  router.get('/roadmap/items/:itemId/linked-messages', async (req, res) => {
    const { itemId } = parse(roadmapItemIdParams, req.params);
    const notes = isModeratorOrAdmin(req.auth);
    res.json((await repo.messagesLinkedTo(itemId)).map((r) => toUnifiedItem(r, { includeNotes: notes })));
  });

  return router;
}
