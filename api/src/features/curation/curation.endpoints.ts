import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createCurationService } from './curation.service.js';

/**
 * Curation by moderators and admins (401 signed out, 403 without the role: declared in the endpoint table). Who did
 * it always comes from the session; userId/userEmail in an activity body are ignored. A post of tenants the curator
 * may not see answers 404, exactly like an id that does not exist.
 */
export function createCurationEndpoints(ctx: AppContext): EndpointImplementation[] {
  const curation = createCurationService(ctx);
  const curator = (user: { id: number; email: string }) => ({ id: user.id, email: user.email });
  return [
    implement(endpoints.curation.moderateRoadmap, async ({ params, body, auth }) =>
      curation.save('roadmap', params.itemId, body, curator(auth.user), await tenantScopeOf(ctx.db, auth)),
    ),
    implement(endpoints.curation.moderateMessage, async ({ params, body, auth }) =>
      curation.save('messages', params.messageId, body, curator(auth.user), await tenantScopeOf(ctx.db, auth)),
    ),
    implement(endpoints.curation.recordActivity, async ({ body, auth }) => {
      const { created, activity } = await curation.recordActivity(body, curator(auth.user), await tenantScopeOf(ctx.db, auth));
      return Reply.status(created ? 201 : 200, activity);
    }),
  ];
}
