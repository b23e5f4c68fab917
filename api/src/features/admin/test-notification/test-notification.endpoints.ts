import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { createTestNotificationService } from './test-notification.service.js';

/** What the admin reads: 'sent' only when the SMTP server took the mail. */
export const TEST_NOTIFICATION_MESSAGES = {
  sent: (email: string) => `Test notification sent to ${email}`,
  'no-smtp': (email: string) =>
    `Test notification queued for ${email}: no SMTP server is configured (SMTP_URL), so it is written to the server log instead of being sent`,
  'not-taken': (email: string) => `Test notification queued for ${email}: the mail server did not accept it yet; it will be retried`,
};

/** POST /api/admin/test-notification {itemId, itemType, changesSummary?} (Admin only): item-change mail to the caller. */
export function createTestNotificationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const service = createTestNotificationService(ctx);
  return [
    implement(endpoints.admin.testNotification, async ({ body, auth: { user } }) => {
      const result = await service.send(body, { email: user.email, firstName: user.firstName });
      ctx.log.info({ itemId: body.itemId, itemType: body.itemType, by: user.id, delivery: result.delivery }, 'test notification');
      return { success: true, delivery: result.delivery, message: TEST_NOTIFICATION_MESSAGES[result.queuedBecause ?? 'sent'](user.email) };
    }),
  ];
}
