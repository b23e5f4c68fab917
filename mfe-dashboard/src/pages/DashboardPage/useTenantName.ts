import { useCallback } from 'react';
import { routes } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';

/**
 * A tenant's name by its id (GET /api/tenants, the request the "Received by" line makes already), said only when the
 * reader sees more than one tenant: with one, a relevance can only be of that tenant and the name would say nothing.
 */
export function useTenantName(): (tenantId: number) => string | null {
  const visible = useEndpoint(routes.tenants.visible, {});
  const tenants = visible.data?.tenants;
  return useCallback((tenantId: number) => (tenants && tenants.length > 1 ? (tenants.find((t) => t.id === tenantId)?.name ?? null) : null), [tenants]);
}
