import type { AppContext } from '../../app-context.js';
import type { EndpointImplementation } from '../../http/endpoints.js';
import { createDashboardEndpoints } from './dashboard/dashboard.endpoints.js';
import { createLastVisitEndpoints } from './last-visit/last-visit.endpoints.js';
import { createListEndpoints } from './list.endpoints.js';
import { createMessageItemEndpoints } from './message-item.endpoints.js';
import { createMessageItemsEndpoints } from './message-items.endpoints.js';
import { createRoadmapItemsEndpoints } from './roadmap-items.endpoints.js';
import { createItemVersionsEndpoints } from './versions/item-versions.endpoints.js';

/**
 * The items group: the unified list and its export, the dashboard's filters, stats and featured items, the
 * caller's last visit, each source's items with their history, versions and links, and Message Center attachments.
 */
export function createItemsEndpoints(ctx: AppContext): EndpointImplementation[] {
  return [
    createListEndpoints,
    createDashboardEndpoints,
    createLastVisitEndpoints,
    createRoadmapItemsEndpoints,
    createMessageItemsEndpoints,
    createMessageItemEndpoints,
    createItemVersionsEndpoints,
  ].flatMap((factory) => factory(ctx));
}
