import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import { createTenantsService } from './tenants.service.js';

/** The tenants group (Admin only): the tenants list and its actions, and which private tenants a user may see. */
export function createTenantsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const tenants = createTenantsService(ctx);
  return [
    implement(endpoints.tenants.list, () => tenants.list()),
    implement(endpoints.tenants.create, async ({ body }) => Reply.status(201, await tenants.create(body))),
    implement(endpoints.tenants.update, ({ params, body }) => tenants.update(params.id, body)),
    implement(endpoints.tenants.remove, ({ params, query }) => tenants.remove(params.id, query.deletePosts)),
    implement(endpoints.tenants.test, ({ params }) => tenants.test(params.id)),
    implement(endpoints.tenants.sync, ({ params, auth }) => tenants.sync(params.id, auth.user.id)),
    implement(endpoints.tenants.access, () => tenants.access()),
    implement(endpoints.tenants.userTenants, ({ params, body }) => tenants.setUserTenants(params.id, body.tenantIds)),
  ];
}
