import { Router } from 'express';
import type { AppContext } from '../../app-context.js';
import { createActivityRouter } from './activity.router.js';
import { createAiSummaryRouter } from './ai-summary.router.js';
import { createAnalyticsRouter } from './analytics.router.js';
import { createImpersonationRouter } from './impersonation.router.js';
import { createProductMappingsRouter } from './product-mappings.router.js';
import { createRolesRouter } from './roles.router.js';
import { createTestNotificationRouter } from './test-notification.router.js';
import { createUserRolesRouter } from './user-roles.router.js';
import { createUsersRouter } from './users.router.js';

/**
 * The admin API: roles, users, assignments, impersonation (/api/dev, when enabled), analytics, product mappings,
 * moderator activity, AI summary and test notification. Each route checks the Admin role itself (no blanket guard on
 * /admin), so unknown /api/admin paths still answer 404 and other features' admin routes are unaffected.
 */
export function createAdminRouter(ctx: AppContext): Router {
  const router = Router();
  for (const factory of [
    createRolesRouter,
    createUsersRouter,
    createUserRolesRouter,
    createImpersonationRouter,
    createAnalyticsRouter,
    createProductMappingsRouter,
    createActivityRouter,
    createAiSummaryRouter,
    createTestNotificationRouter,
  ]) {
    router.use(factory(ctx));
  }
  return router;
}
