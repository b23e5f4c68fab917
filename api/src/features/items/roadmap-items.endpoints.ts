import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { isModeratorOrAdmin } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { toUnifiedItem } from './item-mapper.js';
import { createChangeHistoryRepo } from '../sync/change-history.repo.js';
import { createSourceItemsRepo } from './source-items.repo.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createServiceHealthRepo } from '../service-health/service-health.repo.js';

/** Roadmap reads owned by ingestion: the digest list, an item's change history and the messages that name it. */
export function createRoadmapItemsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createSourceItemsRepo(ctx.db);
  const history = createChangeHistoryRepo(ctx.db);
  return [
    implement(endpoints.items.roadmapItems, async ({ query, auth }) => {
      const { rows, ...page } = await repo.list('roadmap', { ...query, now: ctx.clock.now() });
      const includeNotes = isModeratorOrAdmin(auth);
      return { ...page, items: rows.map((r) => toUnifiedItem(r, { includeNotes })) };
    }),
    implement(endpoints.items.roadmapHistory, async ({ params: { itemId }, req }) => {
      await ctx.services.missBudget.charge(req);
      const item = await repo.find('roadmap', itemId);
      if (!item) throw new NotFoundError(`Roadmap item ${itemId} not found`);
      // The roadmap's changes are recorded by runs of no tenant: every reader sees all of them.
      return history.forItem(item.id, undefined);
    }),
    implement(endpoints.items.roadmapLinkedMessages, async ({ params: { itemId }, auth }) => {
      const includeNotes = isModeratorOrAdmin(auth);
      return (await repo.messagesLinkedTo(itemId, await tenantScopeOf(ctx.db, auth))).map((r) => toUnifiedItem(r, { includeNotes }));
    }),
    implement(endpoints.items.roadmapRelatedIssues, async ({ params: { itemId }, auth }) => {
      const item = await repo.find('roadmap', itemId);
      if (!item) throw new NotFoundError(`Roadmap item ${itemId} not found`);
      const rows = await createServiceHealthRepo(ctx.db).relatedTo(item, await tenantScopeOf(ctx.db, auth));
      const includeNotes = isModeratorOrAdmin(auth);
      return rows.map((r) => toUnifiedItem(r, { includeNotes }));
    }),
  ];
}
