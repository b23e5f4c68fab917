import type { AppContext } from '../../app-context.js';
import type { EndpointImplementation } from '../../http/endpoints.js';
import { createActivityEndpoints } from './activity/activity.router.js';
import { createAiSummaryEndpoints } from './ai-summary/ai-summary.router.js';
import { createAnalyticsEndpoints } from './analytics/analytics.router.js';
import { createImpersonationEndpoints } from './impersonation/impersonation.router.js';
import { createProductMappingsEndpoints } from './product-mappings/product-mappings.router.js';
import { createRolesEndpoints } from './roles/roles.router.js';
import { createTestNotificationEndpoints } from './test-notification/test-notification.router.js';
import { createUserRolesEndpoints } from './user-roles/user-roles.router.js';
import { createUsersEndpoints } from './users/users.router.js';

/**
 * The admin API: roles, users, assignments, impersonation (/api/dev, when enabled), analytics, product mappings,
 * moderator activity, AI summary and test notification. Access (Admin, or the real Admin role for impersonation) is
 * declared per endpoint in the table and checked before anything else.
 */
export function createAdminEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    createRolesEndpoints,
    createUsersEndpoints,
    createUserRolesEndpoints,
    createImpersonationEndpoints,
    createAnalyticsEndpoints,
    createProductMappingsEndpoints,
    createActivityEndpoints,
    createAiSummaryEndpoints,
    createTestNotificationEndpoints,
  ].flatMap((factory) => factory(ctx));
}
