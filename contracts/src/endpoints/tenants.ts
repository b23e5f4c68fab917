import { defineEndpoints } from '../endpoint.js';
import { idParams, resultMessage } from '../common.js';
import {
  createTenantRequest,
  deleteTenantQuery,
  tenantIdParams,
  tenantRecord,
  tenantsResponse,
  tenantSyncResponse,
  tenantTestResult,
  updateTenantRequest,
  userTenantsRequest,
  userTenantsResponse,
} from '../tenants.js';

/** Admin → Tenants: the Microsoft 365 tenants whose Message Center (and Service Health) the product reads. */
export const tenantEndpoints = defineEndpoints('tenants', {
  list: {
    method: 'GET',
    path: '/api/admin/tenants',
    summary: 'Every tenant with its last sync per feed, post counts and errors (never its secret)',
    access: 'admin',
    response: tenantsResponse,
  },
  create: {
    method: 'POST',
    path: '/api/admin/tenants',
    summary: 'Add a tenant (private and enabled unless said otherwise); the client secret is sealed at rest',
    access: 'admin',
    body: createTenantRequest,
    bodyLimit: '8kb',
    response: tenantRecord,
    status: [201],
  },
  update: {
    method: 'PATCH',
    path: '/api/admin/tenants/:id',
    summary: 'Change a tenant; a clientSecret replaces the stored one',
    access: 'admin',
    params: tenantIdParams,
    body: updateTenantRequest,
    bodyLimit: '8kb',
    response: tenantRecord,
  },
  remove: {
    method: 'DELETE',
    path: '/api/admin/tenants/:id',
    summary: 'Remove a tenant and its credentials; its posts stay in the archive, attributed, unless deletePosts=true',
    access: 'admin',
    params: tenantIdParams,
    query: deleteTenantQuery,
    response: resultMessage,
  },
  test: {
    method: 'POST',
    path: '/api/admin/tenants/:id/test',
    summary: 'Get a token and read one page of each feed; says exactly what is missing (secret, consent, permission)',
    access: 'admin',
    params: tenantIdParams,
    response: tenantTestResult,
  },
  sync: {
    method: 'POST',
    path: '/api/admin/tenants/:id/sync',
    summary: "Sync this tenant's Message Center now",
    access: 'admin',
    params: tenantIdParams,
    response: tenantSyncResponse,
  },
  userTenants: {
    method: 'PUT',
    path: '/api/admin/app-users/:id/tenants',
    summary: 'The private tenants a user may see (admins see every tenant; public tenants need no grant)',
    access: 'admin',
    params: idParams,
    body: userTenantsRequest,
    response: userTenantsResponse,
  },
});
