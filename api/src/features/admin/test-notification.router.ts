import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { createTestNotificationService } from './test-notification.service.js';

/** POST /api/admin/test-notification {itemId, itemType, changesSummary?} (Admin only): item-change mail to the caller. */
export function createTestNotificationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createTestNotificationService(ctx);
  return [
    implement(endpoints.admin.testNotification, async ({ body, auth: { user } }) => {
      await service.send(body, { email: user.email, firstName: user.firstName });
      ctx.log.info({ itemId: body.itemId, itemType: body.itemType, by: user.id }, 'test notification queued');
      return { success: true, message: `Test notification sent to ${user.email}` };
    }),
  ];
}
