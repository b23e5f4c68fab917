import { endpoints, itemListQuery } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { createLastVisitRepo } from './last-visit.repo.js';

/**
 * POST /api/dashboard/visit: the dashboard calls it once when it opens for a signed-in user. The visit is recorded
 * (at most every LAST_VISIT_UPDATE_SECONDS) and the answer is the previous one with the number of items new or
 * changed since then — the total of the list with `sinceLastVisit=true` and no other filter.
 */
export function createLastVisitEndpoints(ctx: AppContext): EndpointImplementation[] {
  const itemsRepo = ctx.services.itemList.repo;
  const visits = createLastVisitRepo(ctx.db);
  const minIntervalMs = ctx.config.LAST_VISIT_UPDATE_SECONDS * 1000;
  const defaults = itemListQuery.parse({ sinceLastVisit: 'true' });
  return [
    implement(endpoints.items.dashboardVisit, async ({ auth }) => {
      const now = ctx.clock.now();
      const visit = await visits.record(auth.user.id, now, minIntervalMs);
      if (!visit.previousSeenAt) return { lastVisitAt: null, changesSinceLastVisit: 0 };
      const { page: _page, limit: _limit, ...filters } = defaults;
      const changes = await itemsRepo.total({ ...filters, visitSince: visit.previousSeenAt }, now);
      return { lastVisitAt: visit.previousSeenAt.toISOString(), changesSinceLastVisit: changes };
    }),
  ];
}
