import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { createExportWriter } from './export-handler.js';
import { answerCopyFor } from './list-answers.js';

/**
 * GET /api/unified/items (the dashboard list) and GET /api/dashboard/export (the same filters as CSV), both as the
 * caller sees the list (list-for-caller.ts).
 */
export function createListEndpoints(ctx: AppContext): EndpointImplementation[] {
  const { repo } = ctx.services.itemList;
  const list = ctx.services.itemList.forCaller;
  const writeExport = createExportWriter(ctx, repo);

  return [
    implement(endpoints.items.list, async ({ query, auth, req, res }) => {
      const now = ctx.clock.now();
      const answer = await list.answer(query, auth, now, () => ctx.services.missBudget.charge(req));
      const copy = answerCopyFor(answer, req);
      res.vary('Accept-Encoding');
      // The validator is set here, so Express does not hash the 50–100 KB body again on every request.
      res.setHeader('ETag', copy.etag);
      return Reply.json(answer.body, 200, copy.encoding ? { encoding: copy.encoding, body: copy.body } : undefined);
    }),
    implement(endpoints.items.export, async ({ query, auth, req, res }) => {
      const now = ctx.clock.now();
      const { page: _page, limit: _limit, ...filters } = await list.resolveView(query, auth, now);
      await writeExport(filters, now, req, res, Boolean(auth));
    }),
  ];
}
