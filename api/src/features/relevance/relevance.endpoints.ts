import { endpoints, TRIAGE_ITEM_TYPE_SOURCES } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { createSourceItemsRepo } from '../items/source-items.repo.js';
import { tenantScopeOf } from '../tenants/tenant-scope.js';
import { createRelevanceRepo } from './relevance.repo.js';
import { toTenantRelevance } from './tenant-relevance.js';

/**
 * The relevance group: an item's relevance to each tenant the caller may see, for the item dialog. The item is found
 * as the caller may see it, so a post only a private tenant received answers exactly as an id that does not exist,
 * and only the rows of tenants the caller may see are read (docs/product/relevance.md).
 */
export function createRelevanceEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    implement(endpoints.relevance.item, async ({ params, auth }) => {
      const scope = await tenantScopeOf(ctx.db, auth);
      const item = await createSourceItemsRepo(ctx.db).find(TRIAGE_ITEM_TYPE_SOURCES[params.itemType], params.itemId, scope);
      if (!item) throw new NotFoundError(`No ${params.itemType} item ${params.itemId}`);
      // A signed-in caller always has a scope; none (a guest) would read no tenant's rows.
      const rows = scope ? await createRelevanceRepo(ctx.db).ofItem(item.id, scope) : [];
      return { tenants: rows.map(toTenantRelevance) };
    }),
  ];
}
