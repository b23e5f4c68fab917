import { endpoints, formatCount, licensedProductsOf } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { NotFoundError } from '../../../lib/errors.js';
import { mergePendingItemIndexEntries } from '../../../db/pending-index-entries.js';
import { refreshProductFamilies } from '../../sync/derived-fields.repo.js';
import { createTenantsRepo } from '../../tenants/tenants.repo.js';
import { createProductMappingsRepo, licenceOverrides } from './product-mappings.repo.js';

/** Product mappings (Admin only): list, initialize from the items, rename / toggle / set the family or licence plans, delete. */
export function createProductMappingsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createProductMappingsRepo(ctx.db);
  return [
    implement(endpoints.admin.productMappings, () => repo.list()),
    implement(endpoints.admin.initializeProductMappings, async () => {
      const result = await repo.initialize(ctx.clock.now());
      return { ...result, message: `Created ${formatCount(result.created, 'product mapping')} (${result.total.toLocaleString('en-US')} in total)` };
    }),
    implement(endpoints.admin.updateProductMapping, async ({ params: { id }, body: { displayName, isActive, family, licencePlans } }) => {
      const patch = {
        ...(displayName !== undefined ? { displayName } : {}),
        ...(isActive !== undefined ? { isActive } : {}),
        ...(family !== undefined ? { family } : {}),
        ...(licencePlans !== undefined ? { licencePlans } : {}),
      };
      // A new family is written to every item holding the product, and new licence plans to every tenant's licensed
      // products, in the same transaction, so the filters agree at once.
      let refreshed = 0;
      const updated = await ctx.db.transaction(async (tx) => {
        const row = await createProductMappingsRepo(tx).update(id, patch, ctx.clock.now());
        if (row && family !== undefined) refreshed = await refreshProductFamilies(tx, { product: row.sourceProduct });
        if (row && licencePlans !== undefined) {
          const overrides = await licenceOverrides(tx);
          await createTenantsRepo(tx).relicense((plans) => licensedProductsOf(plans, overrides));
        }
        return row;
      });
      if (!updated) throw new NotFoundError(`Product mapping ${id} not found`);
      if (refreshed > 0) await mergePendingItemIndexEntries(ctx.db, ctx.log);
      return updated;
    }),
    implement(endpoints.admin.deleteProductMapping, async ({ params: { id } }) => {
      if (!(await repo.remove(id))) throw new NotFoundError(`Product mapping ${id} not found`);
      return { success: true, message: 'Product mapping deleted' };
    }),
  ];
}
