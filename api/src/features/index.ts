import { endpoints } from '@radar/contracts';
import type { AppContext } from '../app-context.js';
import type { EndpointImplementation } from '../http/endpoints.js';
import { createAdminEndpoints } from './admin/admin.endpoints.js';
import { createAlertsEndpoints } from './alerts/alerts.endpoints.js';
import { createAuthEndpoints } from './auth/auth.endpoints.js';
import { createContactEndpoints } from './contact/contact.endpoints.js';
import { createCurationEndpoints } from './curation/curation.endpoints.js';
import { createDigestEndpoints } from './digest/digest.endpoints.js';
import { createFeedsEndpoints } from './feeds/feeds.endpoints.js';
import { createTrackersEndpoints } from './trackers/trackers.endpoints.js';
import { createPasskeysEndpoints } from './passkeys/passkeys.endpoints.js';
import { createHealthEndpoints, type HealthOptions } from './health/health.endpoints.js';
import { createItemsEndpoints } from './items/items.endpoints.js';
import { createMcpEndpoints } from './mcp/mcp.endpoints.js';
import { createReferenceEndpoints } from './reference/reference.endpoints.js';
import { createRemotesEndpoints } from './remotes/remotes.endpoints.js';
import { createTenantsEndpoints } from './tenants/tenants.endpoints.js';
import { createServiceHealthEndpoints } from './service-health/service-health.endpoints.js';
import { createSubscriptionsEndpoints } from './subscriptions/subscriptions.endpoints.js';
import { createSyncEndpoints } from './sync/sync.endpoints.js';
import { createTokensEndpoints } from './tokens/tokens.endpoints.js';
import { createTriageEndpoints } from './triage/triage.endpoints.js';
import { createUnsubscribeEndpoints } from './unsubscribe/unsubscribe.endpoints.js';
import { createUsageEndpoints } from './usage/usage.endpoints.js';
import { createRelevanceEndpoints } from './relevance/relevance.endpoints.js';

export type EndpointGroup = keyof typeof endpoints;
export type FeatureOptions = HealthOptions;

/**
 * One handler factory per group of the endpoint table (@radar/contracts `endpoints`), and each lives in the folder of
 * the same name: the handler of `endpoints.<group>.<name>` is under features/<group>/ (a group of two words in
 * kebab case: `serviceHealth` is features/service-health/). The type makes a new group
 * fail to compile until it has its folder here; `featureImplementations` refuses a factory that implements another
 * group's row, and app.ts refuses to start when a row has no handler or a handler no row.
 */
export const featureEndpoints: { readonly [G in EndpointGroup]: (ctx: AppContext, options: FeatureOptions) => EndpointImplementation[] } = {
  auth: createAuthEndpoints,
  items: createItemsEndpoints,
  curation: createCurationEndpoints,
  subscriptions: createSubscriptionsEndpoints,
  digest: createDigestEndpoints,
  unsubscribe: createUnsubscribeEndpoints,
  contact: createContactEndpoints,
  admin: createAdminEndpoints,
  sync: createSyncEndpoints,
  health: (ctx, options) => createHealthEndpoints(ctx, options),
  feeds: createFeedsEndpoints,
  reference: createReferenceEndpoints,
  tokens: createTokensEndpoints,
  mcp: createMcpEndpoints,
  alerts: createAlertsEndpoints,
  remotes: createRemotesEndpoints,
  tenants: createTenantsEndpoints,
  serviceHealth: createServiceHealthEndpoints,
  triage: createTriageEndpoints,
  trackers: createTrackersEndpoints,
  passkeys: createPasskeysEndpoints,
  usage: createUsageEndpoints,
  relevance: createRelevanceEndpoints,
};

/** Every group's handlers, in table order; throws when a group's folder implements a row of another group. */
export function featureImplementations(ctx: AppContext, options: FeatureOptions = {}): EndpointImplementation[] {
  return (Object.keys(endpoints) as EndpointGroup[]).flatMap((group) => {
    const implementations = featureEndpoints[group](ctx, options);
    const stray = implementations.filter((i) => i.endpoint.group !== group).map((i) => i.endpoint.id);
    if (stray.length > 0) throw new Error(`features/${group}/ implements rows of other groups: ${stray.join(', ')}`);
    return implementations;
  });
}
