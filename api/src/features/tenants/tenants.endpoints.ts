import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { createTenantsService } from './tenants.service.js';
import { createTenantsRepo } from './tenants.repo.js';
import { tenantScopeOf } from './tenant-scope.js';

/**
 * The tenants group: for admins the tenants list and its actions and who may see the private ones; for everyone the
 * tenants whose posts they may see (the list's tenant filter).
 */
export function createTenantsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const tenants = createTenantsService(ctx);
  return [
    implement(endpoints.tenants.list, () => tenants.list()),
    implement(endpoints.tenants.create, async ({ body }) => Reply.status(201, await tenants.create(body))),
    implement(endpoints.tenants.update, ({ params, body }) => tenants.update(params.id, body)),
    implement(endpoints.tenants.remove, ({ params, query }) => tenants.remove(params.id, query.deletePosts)),
    implement(endpoints.tenants.test, ({ params }) => tenants.test(params.id)),
    implement(endpoints.tenants.sync, ({ params, auth }) => tenants.sync(params.id, auth.user.id)),
    implement(endpoints.tenants.visible, async ({ auth }) => {
      const visible = await createTenantsRepo(ctx.db).visible(await tenantScopeOf(ctx.db, auth));
      return { tenants: visible, total: visible.length };
    }),
    implement(endpoints.tenants.access, () => tenants.access()),
    implement(endpoints.tenants.userTenants, ({ params, body }) => tenants.setUserTenants(params.id, body.tenantIds)),
  ];
}
