import type { AppContext } from '../app-context.js';
import type { EndpointImplementation } from '../http/endpoints.js';
import { createAdminEndpoints } from './admin/admin.router.js';
import { createAlertChannelsEndpoints } from './alerts/channels.router.js';
import { createSavedSearchesEndpoints } from './alerts/saved-searches.router.js';
import { createAuthEndpoints } from './auth/auth.router.js';
import { createContactEndpoints } from './contact/contact.router.js';
import { createDashboardEndpoints } from './dashboard/dashboard.router.js';
import { createDigestEndpoints } from './digest/digest.router.js';
import { createHeldSyncEndpoints } from './held-sync/held-sync.router.js';
import { createFeedsEndpoints } from './feeds/feeds.router.js';
import { createMcpEndpoints } from './mcp/mcp.router.js';
import { createReferenceEndpoints } from './reference/reference.router.js';
import { createRemotesEndpoints } from './remotes/remotes.router.js';
import { createItemVersionsEndpoints } from './item-versions/item-versions.router.js';
import { createItemsEndpoints } from './items/items.router.js';
import { createMessageItemEndpoints } from './items/message-item.endpoints.js';
import { createModerationEndpoints } from './moderation/moderation.router.js';
import { createUnsubscribeEndpoints } from './notifications/unsubscribe.router.js';
import { createSubscriptionsEndpoints } from './subscriptions/subscriptions.router.js';
import { createMessageItemsEndpoints } from './message-items/message-items.router.js';
import { createRoadmapItemsEndpoints } from './roadmap-items/roadmap-items.router.js';
import { createSyncEndpoints } from './sync/sync.router.js';
import { createTokensEndpoints } from './tokens/tokens.router.js';

/**
 * Every feature's handlers for rows of the endpoint table (@radar/contracts `endpoints`). app.ts mounts them in table
 * order and refuses to start when a row has no handler or a handler no row. A feature adds one line here.
 */
export const featureEndpoints: Array<(ctx: AppContext) => EndpointImplementation[]> = [
  createItemsEndpoints,
  createMessageItemEndpoints,
  createDashboardEndpoints,
  createModerationEndpoints,
  createSubscriptionsEndpoints,
  createAuthEndpoints,
  createContactEndpoints,
  createSyncEndpoints,
  createHeldSyncEndpoints,
  createRoadmapItemsEndpoints,
  createMessageItemsEndpoints,
  createItemVersionsEndpoints,
  createAdminEndpoints,
  createDigestEndpoints,
  createUnsubscribeEndpoints,
  createFeedsEndpoints,
  createTokensEndpoints,
  createReferenceEndpoints,
  createMcpEndpoints,
  createSavedSearchesEndpoints,
  createAlertChannelsEndpoints,
  createRemotesEndpoints,
];
