import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { createUsageService } from './usage.service.js';

/** The usage group: for admins, a tenant's usage as Graph's usage reports count it, with its history and why it was not read. */
export function createUsageEndpoints(ctx: AppContext): EndpointImplementation[] {
  const usage = createUsageService(ctx);
  return [implement(endpoints.usage.tenant, ({ params }) => usage.tenantUsage(params.id))];
}
