import type { AppContext } from '../../app-context.js';
import type { EndpointImplementation } from '../../http/endpoints.js';
import { createAlertChannelsEndpoints } from './channels.endpoints.js';
import { createSavedSearchesEndpoints } from './saved-searches.endpoints.js';

/** The alerts group: a user's saved searches and the channels their alerts go to. */
export function createAlertsEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [...createSavedSearchesEndpoints(ctx), ...createAlertChannelsEndpoints(ctx)];
}
