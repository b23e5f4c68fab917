import type { Endpoint } from '../endpoint.js';
import { adminEndpoints } from './admin.js';
import { alertEndpoints } from './alerts.js';
import { authEndpoints } from './auth.js';
import { curationEndpoints, subscriptionEndpoints } from './curation.js';
import { feedEndpoints } from './feeds.js';
import { trackerEndpoints } from './trackers.js';
import { itemsEndpoints } from './items.js';
import { contactEndpoints, digestEndpoints, healthEndpoints, unsubscribeEndpoints } from './public.js';
import { mcpEndpoints } from './mcp.js';
import { passkeyEndpoints } from './passkeys.js';
import { referenceEndpoints } from './reference.js';
import { relevanceEndpoints } from './relevance.js';
import { remoteEndpoints } from './remotes.js';
import { tenantEndpoints } from './tenants.js';
import { serviceHealthEndpoints } from './service-health.js';
import { syncEndpoints } from './sync.js';
import { tokenEndpoints } from './tokens.js';
import { triageEndpoints } from './triage.js';
import { usageEndpoints } from './usage.js';

/**
 * The endpoint table: every route the api answers. The api mounts its routes from it (a route that is not here does
 * not exist), checks answers against the response schemas in tests, and the apps call typed functions derived from
 * it. Group by area; a feature adds its endpoints to a group file and the group here.
 */
export const endpoints = {
  auth: authEndpoints,
  items: itemsEndpoints,
  curation: curationEndpoints,
  subscriptions: subscriptionEndpoints,
  digest: digestEndpoints,
  unsubscribe: unsubscribeEndpoints,
  contact: contactEndpoints,
  admin: adminEndpoints,
  sync: syncEndpoints,
  health: healthEndpoints,
  feeds: feedEndpoints,
  reference: referenceEndpoints,
  tokens: tokenEndpoints,
  mcp: mcpEndpoints,
  alerts: alertEndpoints,
  remotes: remoteEndpoints,
  tenants: tenantEndpoints,
  serviceHealth: serviceHealthEndpoints,
  triage: triageEndpoints,
  trackers: trackerEndpoints,
  passkeys: passkeyEndpoints,
  usage: usageEndpoints,
  relevance: relevanceEndpoints,
} as const;

/** Every endpoint, in mounting order. */
export const endpointList: readonly Endpoint[] = Object.values(endpoints).flatMap((group) => Object.values(group) as Endpoint[]);
