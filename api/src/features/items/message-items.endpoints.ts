import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { toUnifiedItem } from './item-mapper.js';
import { createSourceItemsRepo } from './source-items.repo.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';

/** Message Center reads owned by ingestion: the digest list, a message's change history and its roadmap items. */
export function createMessageItemsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSourceItemsRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);

  async function findMessage(messageId: string, auth: RequestAuth | null) {
    const item = await repo.find('messages', messageId, await tenantScopeOf(ctx.db, auth));
    if (!item) throw new NotFoundError(`Message ${messageId} not found`);
    return item;
  }

  return [
    implement(endpoints.items.messageItems, async ({ query, auth }) => {
      const { rows, ...page } = await repo.list('messages', { ...query, now: ctx.clock.now(), scope: await tenantScopeOf(ctx.db, auth) });
      const includeNotes = isModeratorOrAdmin(auth);
      return { ...page, items: rows.map((r) => toUnifiedItem(r, { includeNotes })) };
    }),
    implement(endpoints.items.messageHistory, async ({ params, auth, req }) => {
      await ctx.services.missBudget.charge(req);
      return history.forItem((await findMessage(params.messageId, auth)).id, await tenantScopeOf(ctx.db, auth));
    }),
    implement(endpoints.items.messageLinkedRoadmap, async ({ params, auth }) => {
      const message = await findMessage(params.messageId, auth);
      const includeNotes = isModeratorOrAdmin(auth);
      return (await repo.roadmapLinkedFrom(message.id)).map((r) => toUnifiedItem(r, { includeNotes }));
    }),
  ];
}
