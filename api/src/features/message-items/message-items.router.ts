import { Router } from 'express';
import { messageIdParams, sourceItemsQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { NotFoundError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { createSourceItemsRepo } from '../roadmap-items/source-items.repo.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';

/** Message Center reads owned by ingestion: the digest list, a message's change history and its roadmap items. */
export function createMessageItemsRouter(ctx: AppContext): Router {
  const repo = createSourceItemsRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);
  const router = Router();

  router.get('/message-center/items', async (req, res) => {
    const q = parse(sourceItemsQuery, req.query);
    const { rows, ...page } = await repo.list('messages', { ...q, now: ctx.clock.now() });
    const notes = isModeratorOrAdmin(req.auth);
    res.json({ ...page, items: rows.map((r) => toUnifiedItem(r, { includeNotes: notes })) });
  });

  async function findMessage(messageId: string) {
    const item = await repo.find('messages', messageId);
    if (!item) throw new NotFoundError(`Message ${messageId} not found`);
    return item;
  }

  router.get('/message-center/items/:messageId/history', async (req, res) => {
    const { messageId } = parse(messageIdParams, req.params);
    res.json(await history.forItem((await findMessage(messageId)).id));
  });

  router.get('/message-center/items/:messageId/linked-roadmap', async (req, res) => {
    const { messageId } = parse(messageIdParams, req.params);
    const message = await findMessage(messageId);
    const notes = isModeratorOrAdmin(req.auth);
    res.json((await repo.roadmapLinkedFrom(message.id)).map((r) => toUnifiedItem(r, { includeNotes: notes })));
  });

  return router;
}
