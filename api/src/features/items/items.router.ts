import { pipeline } from 'node:stream/promises';
import { endpoints, type ItemListQuery, type ItemListResponse } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { AuthenticationError } from '../../http/errors.js';
import { createLastVisitEndpoints } from '../last-visit/last-visit.router.js';
import { createLastVisitRepo, visitBaseline } from '../last-visit/last-visit.repo.js';
import type { ItemListRequest } from './item-query.js';
import { csvStream, exportFileName } from './items.export.js';
import { createItemsRepo } from './items.repo.js';

/**
 * GET /api/unified/items (the dashboard list), GET /api/dashboard/export (the same filters as CSV), and the dashboard
 * visit that `sinceLastVisit` counts from (it shares the list's repo and count reuse).
 */
export function createItemsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createItemsRepo(ctx.pool);
  const visits = createLastVisitRepo(ctx.db);

  /** `sinceLastVisit` means the caller's previous dashboard visit: signed-in users only. */
  async function resolveVisit<Q extends Pick<ItemListQuery, 'sinceLastVisit'>>(q: Q, auth: RequestAuth | null, now: Date): Promise<Q & Pick<ItemListRequest, 'visitSince'>> {
    if (!q.sinceLastVisit) return q;
    if (!auth) throw new AuthenticationError('Sign in to see what changed since your last visit');
    return { ...q, visitSince: visitBaseline(await visits.find(auth.user.id), now) };
  }

  return [
    ...createLastVisitEndpoints(ctx, repo),
    implement(endpoints.items.list, async ({ query, auth }) => {
      const now = ctx.clock.now();
      const q = await resolveVisit(query, auth, now);
      const { items, total } = await repo.listJson(q, now, { includeNotes: isModeratorOrAdmin(auth) });
      // The ItemListResponse shape, written from items the repo serialised (and cached) one by one: the same bytes
      // as res.json(body) would send, without serialising 50 items again on every request.
      const tail: Omit<ItemListResponse, 'items'> = { total, totalPages: Math.ceil(total / q.limit), page: q.page };
      return Reply.json(`{"items":[${items.join(',')}],${JSON.stringify(tail).slice(1)}`);
    }),
    implement(endpoints.items.export, async ({ query, auth, res }) => {
      const now = ctx.clock.now();
      const { page: _page, limit: _limit, ...filters } = await resolveVisit(query, auth, now);
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(now)}"`);
      try {
        await pipeline(csvStream(repo.streamAll(filters, now)), res);
      } catch (err) {
        // The client going away mid-download is not a server error.
        if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        throw err;
      }
    }),
  ];
}
