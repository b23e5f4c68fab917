import { defineEndpoints } from '../endpoint.js';
import { tenantIdParams } from '../tenants.js';
import { tenantUsageResponse } from '../usage.js';

/** A tenant's usage as Microsoft Graph's usage reports count it (read daily with Reports.Read.All, kept 13 months). */
export const usageEndpoints = defineEndpoints('usage', {
  tenant: {
    method: 'GET',
    path: '/api/admin/tenants/:id/usage',
    summary: "A tenant's active users per workload (newest counts and 90 days of trend), when they were read, and why not",
    access: 'admin',
    params: tenantIdParams,
    response: tenantUsageResponse,
  },
});
