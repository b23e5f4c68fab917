import { useCallback } from 'react';
import { formatCount, routes, type ItemListResponse, type UnifiedItem } from '@radar/contracts';
import { useEndpoint } from '@radar/shared-ui';

/**
 * "Received by 3 of 5 tenants" for a post or issue of the page: of the tenants the reader may see (GET /api/tenants),
 * how many received it (the list's `receivedBy`). Said only when the reader sees more than one tenant: with one, every
 * post is that tenant's and the line would say nothing.
 */
export function receivedByText(received: readonly number[] | undefined, visibleTenants: number): string | null {
  if (!received?.length || visibleTenants < 2) return null;
  return `Received by ${Math.min(received.length, visibleTenants)} of ${formatCount(visibleTenants, 'tenant')}`;
}

export function useReceivedText(receivedBy: ItemListResponse['receivedBy']): (item: UnifiedItem) => string | null {
  const visible = useEndpoint(routes.tenants.visible, {});
  const count = visible.data?.tenants.length ?? 0;
  return useCallback((item: UnifiedItem) => receivedByText(receivedBy?.[item.id], count), [receivedBy, count]);
}
