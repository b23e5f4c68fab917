import type { AppContext } from '../../app-context.js';
import type { EndpointImplementation } from '../../http/endpoints.js';
import { createActivityEndpoints } from './activity/activity.endpoints.js';
import { createAiSummaryEndpoints } from './ai-summary/ai-summary.endpoints.js';
import { createContactSubmissionsEndpoints } from './contact-submissions/contact-submissions.endpoints.js';
import { createAnalyticsEndpoints } from './analytics/analytics.endpoints.js';
import { createImpersonationEndpoints } from './impersonation/impersonation.endpoints.js';
import { createProductMappingsEndpoints } from './product-mappings/product-mappings.endpoints.js';
import { createRolesEndpoints } from './roles/roles.endpoints.js';
import { createTestNotificationEndpoints } from './test-notification/test-notification.endpoints.js';
import { createUserRolesEndpoints } from './user-roles/user-roles.endpoints.js';
import { createUsersEndpoints } from './users/users.endpoints.js';

/**
 * The admin API: roles, users, assignments, impersonation (/api/dev, when enabled), analytics, product mappings,
 * moderator activity, AI summary, test notification and contact submissions. Access (Admin, or the real Admin role for impersonation) is
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
    createContactSubmissionsEndpoints,
  ].flatMap((factory) => factory(ctx));
}
