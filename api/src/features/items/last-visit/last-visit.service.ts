import { itemListQuery, type DashboardVisitResponse } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import type { RequestAuth } from '../../../http/auth.js';
import { tenantScopeOf } from '../../tenants/tenant-scope.js';
import { createLastVisitRepo } from './last-visit.repo.js';

export type LastVisitService = ReturnType<typeof createLastVisitService>;

/**
 * The "since your last visit" banner's answer: the previous visit and the number of items new or changed since,
 * which is the total of the caller's own list with `sinceLastVisit=true` and no other filter (their tenants'
 * private posts counted when they may see them, as the list shows them).
 *
 * `record` is POST /api/dashboard/visit: it writes the visit (at most every LAST_VISIT_UPDATE_SECONDS) and answers.
 * `preview` reads what that POST would answer at `now` without writing: the server-rendered dashboard carries it,
 * so the banner is in the first paint instead of pushing the list down once the page's own POST has answered.
 */
export function createLastVisitService(ctx: Pick<AppContext, 'db' | 'config' | 'services'>) {
  const itemsRepo = ctx.services.itemList.repo;
  const visits = createLastVisitRepo(ctx.db);
  const minIntervalMs = ctx.config.LAST_VISIT_UPDATE_SECONDS * 1000;
  const { page: _page, limit: _limit, ...filters } = itemListQuery.parse({ sinceLastVisit: 'true' });

  async function answer(auth: RequestAuth, previous: Date | null, now: Date): Promise<DashboardVisitResponse> {
    if (!previous) return { lastVisitAt: null, changesSinceLastVisit: 0 };
    const tenantScope = await tenantScopeOf(ctx.db, auth);
    const changes = await itemsRepo.total({ ...filters, visitSince: previous, ...(tenantScope ? { tenantScope } : {}) }, now);
    return { lastVisitAt: previous.toISOString(), changesSinceLastVisit: changes };
  }

  return {
    async record(auth: RequestAuth, now: Date): Promise<DashboardVisitResponse> {
      const visit = await visits.record(auth.user.id, now, minIntervalMs);
      return answer(auth, visit.previousSeenAt, now);
    },
    async preview(auth: RequestAuth, now: Date): Promise<DashboardVisitResponse> {
      const visit = await visits.find(auth.user.id);
      if (!visit) return answer(auth, null, now);
      // The visit the POST would move into "previous" (last seen long enough ago), or the previous one it keeps.
      const moves = visit.lastSeenAt.getTime() <= now.getTime() - minIntervalMs;
      return answer(auth, moves ? visit.lastSeenAt : visit.previousSeenAt, now);
    },
  };
}
