import type { Router } from 'express';
import type { AppContext } from '../app-context.js';
import { createAdminRouter } from './admin/admin.router.js';
import { createAuthRouter } from './auth/auth.router.js';
import { createContactRouter } from './contact/contact.router.js';
import { createDashboardRouter } from './dashboard/dashboard.router.js';
import { createDigestRouter } from './digest/digest.router.js';
import { createHeldSyncRouter } from './held-sync/held-sync.router.js';
import { createItemsRouter } from './items/items.router.js';
import { createModerationRouter } from './moderation/moderation.router.js';
import { createUnsubscribeRouter } from './notifications/unsubscribe.router.js';
import { createSubscriptionsRouter } from './subscriptions/subscriptions.router.js';
import { createMessageItemsRouter } from './message-items/message-items.router.js';
import { createRoadmapItemsRouter } from './roadmap-items/roadmap-items.router.js';
import { createSyncRouter } from './sync/sync.router.js';

/**
 * Every feature's router, mounted under /api by app.ts in this order. A feature adds one line here.
 * Each factory receives the app context (base dependencies + services).
 */
export const featureRouters: Array<(ctx: AppContext) => Router> = [
  createItemsRouter,
  createDashboardRouter,
  createModerationRouter,
  createSubscriptionsRouter,
  createAuthRouter,
  createContactRouter,
  createSyncRouter,
  createHeldSyncRouter,
  createRoadmapItemsRouter,
  createMessageItemsRouter,
  createAdminRouter,
  createDigestRouter,
  createUnsubscribeRouter,
];
