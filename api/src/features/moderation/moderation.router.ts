import { Router } from 'express';
import { z } from 'zod';
import { moderationUpdate, moderatorActivityRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAuth, requireModerator } from '../../http/auth.js';
import { NotFoundError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { toUnifiedItem } from '../items/item-mapper.js';
import { createModerationRepo } from './moderation.repo.js';

const itemIdParams = z.object({ itemId: z.string().trim().min(1, 'itemId is required').max(50, 'itemId is too long') });
const messageIdParams = z.object({ messageId: z.string().trim().min(1, 'messageId is required').max(50, 'messageId is too long') });

/** Curation by moderators and admins (401 signed out, 403 without the role). */
export function createModerationRouter(ctx: AppContext): Router {
  const repo = createModerationRepo(ctx.db);
  const router = Router();

  const update = (source: 'roadmap' | 'messages', externalId: string, body: unknown, email: string) =>
    repo.update(source, externalId, parse(moderationUpdate, body), { email }, ctx.clock.now());

  router.put('/moderator/roadmap/:itemId', requireModerator, async (req, res) => {
    const { itemId } = parse(itemIdParams, req.params);
    const row = await update('roadmap', itemId, req.body, requireAuth(req).user.email);
    if (!row) throw new NotFoundError(`Roadmap item ${itemId} not found`);
    ctx.log.info({ itemId, by: req.auth!.user.id, isFeatured: row.isFeatured }, 'roadmap item moderated');
    res.json({ success: true, message: 'Moderation settings updated successfully', item: toUnifiedItem(row, { includeNotes: true }) });
  });

  router.put('/moderator/message/:messageId', requireModerator, async (req, res) => {
    const { messageId } = parse(messageIdParams, req.params);
    const row = await update('messages', messageId, req.body, requireAuth(req).user.email);
    if (!row) throw new NotFoundError(`Message ${messageId} not found`);
    ctx.log.info({ messageId, by: req.auth!.user.id, isFeatured: row.isFeatured }, 'message moderated');
    res.json({ success: true, message: 'Moderation settings updated successfully', item: toUnifiedItem(row, { includeNotes: true }) });
  });

  router.post('/moderator-activity', requireModerator, async (req, res) => {
    const input = parse(moderatorActivityRequest, req.body);
    const { user } = requireAuth(req);
    // Who did it comes from the session; userId/userEmail in the body are ignored.
    const activity = await repo.recordActivity(input, { id: user.id, email: user.email }, ctx.clock.now());
    res.status(201).json(activity);
  });

  return router;
}
