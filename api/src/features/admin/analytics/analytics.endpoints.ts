import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../../app-context.js';
import { implement, type EndpointImplementation } from '../../../http/endpoints.js';
import { currentStatusAnalytics } from './analytics.repo.js';

/** GET /api/admin/current-status-analytics (Admin only): the top 12 products across both sources. */
export function createAnalyticsEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [implement(endpoints.admin.analytics, () => currentStatusAnalytics(ctx.db))];
}
