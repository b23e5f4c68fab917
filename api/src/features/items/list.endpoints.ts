import { endpoints, type ItemListQuery } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { AuthenticationError } from '../../lib/errors.js';
import { createLastVisitRepo, visitBaseline } from './last-visit/last-visit.repo.js';
import type { ItemListRequest } from './item-query.js';
import { createExportWriter } from './export-handler.js';
import { answerCopyFor } from './list-answers.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';

/**
 * GET /api/unified/items (the dashboard list), GET /api/dashboard/export (the same filters as CSV), and the dashboard
 * visit that `sinceLastVisit` counts from (it shares the list's repo and count reuse).
 */
export function createListEndpoints(ctx: AppContext): EndpointImplementation[] {
  const { repo, answers } = ctx.services.itemList;
  const visits = createLastVisitRepo(ctx.db);
  const writeExport = createExportWriter(ctx, repo);

  /**
   * The caller's view: the tenants whose posts they may see, and `sinceLastVisit` as their previous dashboard visit
   * (signed-in users only).
   */
  async function resolveVisit<Q extends Pick<ItemListQuery, 'sinceLastVisit' | 'triage' | 'sortField'>>(
    q: Q,
    auth: RequestAuth | null,
    now: Date,
  ): Promise<Q & Pick<ItemListRequest, 'visitSince' | 'tenantScope' | 'triageUserId'>> {
    const tenantScope = await tenantScopeOf(ctx.db, auth);
    // Triage is the team's own: its views and its order need a signed-in user.
    if ((q.triage || q.sortField === 'due') && !auth) throw new AuthenticationError('Sign in to use the triage views and the due-date order');
    const scoped = { ...q, ...(tenantScope ? { tenantScope } : {}), ...(q.triage && auth ? { triageUserId: auth.user.id } : {}) };
    if (!q.sinceLastVisit) return scoped;
    if (!auth) throw new AuthenticationError('Sign in to see what changed since your last visit');
    return { ...scoped, visitSince: visitBaseline(await visits.find(auth.user.id), now) };
  }

  return [
    implement(endpoints.items.list, async ({ query, auth, req, res }) => {
      const now = ctx.clock.now();
      const q = await resolveVisit(query, auth, now);
      const answer = await answers.answer(q, now, { includeNotes: isModeratorOrAdmin(auth), triage: Boolean(auth) }, () => ctx.services.missBudget.charge(req));
      const copy = answerCopyFor(answer, req);
      res.vary('Accept-Encoding');
      // The validator is set here, so Express does not hash the 50–100 KB body again on every request.
      res.setHeader('ETag', copy.etag);
      return Reply.json(answer.body, 200, copy.encoding ? { encoding: copy.encoding, body: copy.body } : undefined);
    }),
    implement(endpoints.items.export, async ({ query, auth, req, res }) => {
      const now = ctx.clock.now();
      const { page: _page, limit: _limit, ...filters } = await resolveVisit(query, auth, now);
      await writeExport(filters, now, req, res, Boolean(auth));
    }),
  ];
}
