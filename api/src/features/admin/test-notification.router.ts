import { Router } from 'express';
import { testNotificationRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAdmin } from '../../http/auth.js';
import { parse } from '../../http/validate.js';
import { createTestNotificationService } from './test-notification.service.js';

/** POST /api/admin/test-notification {itemId, itemType, changesSummary?} (Admin only): item-change mail to the caller. */
export function createTestNotificationRouter(ctx: AppContext): Router {
  const service = createTestNotificationService(ctx);
  const router = Router();

  router.post('/admin/test-notification', requireAdmin, async (req, res) => {
    const input = parse(testNotificationRequest, req.body);
    const { user } = req.auth!;
    await service.send(input, { email: user.email, firstName: user.firstName });
    ctx.log.info({ itemId: input.itemId, itemType: input.itemType, by: user.id }, 'test notification queued');
    res.json({ success: true, message: `Test notification sent to ${user.email}` });
  });

  return router;
}
