import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { createActivityRepo } from './activity.repo.js';

/** Reading the moderator activity log (Admin only); recording it is POST /api/moderator-activity elsewhere. */
export function createActivityEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createActivityRepo(ctx.db);
  return [
    implement(endpoints.admin.moderatorActivities, ({ query }) => repo.page(query.page, query.limit)),
    implement(endpoints.admin.moderatorActivityStats, () => repo.stats(ctx.clock.now())),
  ];
}
