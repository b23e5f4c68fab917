import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';

/** The usage group: for admins, a tenant's usage as Graph's usage reports count it, with its history and why it was not read. */
export function createUsageEndpoints(ctx: AppContext): EndpointImplementation[] {
  // The one usage service the tenant job and Sync now read with (services.ts).
  return [implement(endpoints.usage.tenant, ({ params }) => ctx.services.usage.tenantUsage(params.id))];
}
