import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { NotFoundError } from '../../../http/errors.js';
import { createProductMappingsRepo } from './product-mappings.repo.js';

/** Product mappings (Admin only): list, initialize from the items, rename / toggle, delete. */
export function createProductMappingsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const repo = createProductMappingsRepo(ctx.db);
  return [
    implement(endpoints.admin.productMappings, () => repo.list()),
    implement(endpoints.admin.initializeProductMappings, async () => {
      const result = await repo.initialize(ctx.clock.now());
      return { ...result, message: `Created ${result.created} product mappings (${result.total} in total)` };
    }),
    implement(endpoints.admin.updateProductMapping, async ({ params: { id }, body: { displayName, isActive } }) => {
      const patch = { ...(displayName !== undefined ? { displayName } : {}), ...(isActive !== undefined ? { isActive } : {}) };
      const updated = await repo.update(id, patch, ctx.clock.now());
      if (!updated) throw new NotFoundError(`Product mapping ${id} not found`);
      return updated;
    }),
    implement(endpoints.admin.deleteProductMapping, async ({ params: { id } }) => {
      if (!(await repo.remove(id))) throw new NotFoundError(`Product mapping ${id} not found`);
      return { success: true, message: 'Product mapping deleted' };
    }),
  ];
}
