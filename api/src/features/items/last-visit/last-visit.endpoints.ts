import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { createLastVisitService } from './last-visit.service.js';

/**
 * POST /api/dashboard/visit: the dashboard calls it once when it opens for a signed-in user. The visit is recorded
 * (at most every LAST_VISIT_UPDATE_SECONDS) and the answer is the previous one with the number of items new or
 * changed since then (last-visit.service.ts).
 */
export function createLastVisitEndpoints(ctx: AppContext): EndpointImplementation[] {
  const lastVisit = createLastVisitService(ctx);
  return [implement(endpoints.items.dashboardVisit, ({ auth }) => lastVisit.record(auth, ctx.clock.now()))];
}
