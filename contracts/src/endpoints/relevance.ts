import { defineEndpoints } from '../endpoint.js';
import { itemRelevanceResponse } from '../item-relevance.js';
import { triageItemParams } from '../triage.js';

/** Relevance from the tenants' usage (docs/product/relevance.md): signed-in callers, tenants they may see. */
export const relevanceEndpoints = defineEndpoints('relevance', {
  item: {
    method: 'GET',
    path: '/api/relevance/:itemType/:itemId',
    summary: "An item's relevance to each tenant the caller may see (High, Medium, Low or Unknown, and why), most relevant first",
    access: 'signedIn',
    tokenAccess: true,
    params: triageItemParams,
    response: itemRelevanceResponse,
  },
});
