import { Router } from 'express';
import { createItemSubscription, idParams } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAuth, requireSignedIn } from '../../http/auth.js';
import { NotFoundError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';
import { createSubscriptionsRepo } from './subscriptions.repo.js';

/**
 * Item subscriptions of the signed-in user (the weekly digest has its own endpoints). A user only ever sees and
 * deletes their own: another user's id answers 404, exactly like an id that does not exist.
 */
export function createSubscriptionsRouter(ctx: AppContext): Router {
  const repo = createSubscriptionsRepo(ctx.db);
  const router = Router();

  router.get('/notification-subscriptions', requireSignedIn, async (req, res) => {
    res.json(await repo.listOwn(requireAuth(req).user.id));
  });

  router.post('/notification-subscriptions', requireSignedIn, async (req, res) => {
    const { user } = requireAuth(req);
    const input = parse(createItemSubscription, req.body);
    const item = await repo.findItem(input.itemType, input.itemId);
    if (!item) throw new NotFoundError(`${input.itemType === 'roadmap' ? 'Roadmap item' : 'Message'} ${input.itemId} not found`);
    const { subscription, created } = await repo.upsert(
      user.id,
      {
        itemType: input.itemType,
        itemExternalId: item.externalId,
        itemTitle: input.itemTitle?.trim() || item.title,
        changeTypes: [...new Set(input.changeTypes)],
      },
      ctx.clock.now(),
    );
    res.status(created ? 201 : 200).json(subscription);
  });

  router.delete('/notification-subscriptions/:id', requireSignedIn, async (req, res) => {
    const { id } = parse(idParams, req.params);
    if (!(await repo.removeOwn(requireAuth(req).user.id, id))) throw new NotFoundError(`Subscription ${id} not found`);
    res.json({ success: true, message: 'Subscription removed' });
  });

  return router;
}
