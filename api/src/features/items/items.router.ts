import { pipeline } from 'node:stream/promises';
import { endpoints, type ItemListResponse } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { csvStream, exportFileName } from './items.export.js';
import { createItemsRepo } from './items.repo.js';

/** GET /api/unified/items (the dashboard list) and GET /api/dashboard/export (the same filters as CSV). */
export function createItemsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createItemsRepo(ctx.pool);
  return [
    implement(endpoints.items.list, async ({ query: q, auth }) => {
      const { items, total } = await repo.listJson(q, ctx.clock.now(), { includeNotes: isModeratorOrAdmin(auth) });
      // The ItemListResponse shape, written from items the repo serialised (and cached) one by one: the same bytes
      // as res.json(body) would send, without serialising 50 items again on every request.
      const tail: Omit<ItemListResponse, 'items'> = { total, totalPages: Math.ceil(total / q.limit), page: q.page };
      return Reply.json(`{"items":[${items.join(',')}],${JSON.stringify(tail).slice(1)}`);
    }),
    implement(endpoints.items.export, async ({ query, res }) => {
      const { page: _page, limit: _limit, ...filters } = query;
      const now = ctx.clock.now();
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
