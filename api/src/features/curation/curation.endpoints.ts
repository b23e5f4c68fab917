import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { createCurationService } from './curation.service.js';

/**
 * Curation by moderators and admins (401 signed out, 403 without the role: declared in the endpoint table). Who did
 * it always comes from the session; userId/userEmail in an activity body are ignored.
 */
export function createCurationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const curation = createCurationService(ctx);
  const curator = (user: { id: number; email: string }) => ({ id: user.id, email: user.email });
  return [
    implement(endpoints.curation.moderateRoadmap, ({ params, body, auth }) => curation.save('roadmap', params.itemId, body, curator(auth.user))),
    implement(endpoints.curation.moderateMessage, ({ params, body, auth }) => curation.save('messages', params.messageId, body, curator(auth.user))),
    implement(endpoints.curation.recordActivity, async ({ body, auth }) => {
      const { created, activity } = await curation.recordActivity(body, curator(auth.user));
      return Reply.status(created ? 201 : 200, activity);
    }),
  ];
}
