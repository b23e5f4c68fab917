import { Suspense } from 'react';
import { lazyNamed, type DialogProps } from '@radar/shared-ui';
import type { TenantUsagePayload } from './TenantUsageDialog.js';

const LazyTenantUsageDialog = lazyNamed(() => import('./TenantUsageDialog.js'), 'TenantUsageDialog');

/**
 * The usage dialog as `useDialogs().open` mounts it: its code (the tables, and the chart's after it) is fetched the
 * first time an admin asks for a tenant's usage, not with the Tenants tab.
 */
export function UsageDialog(props: DialogProps<TenantUsagePayload>) {
  return (
    <Suspense fallback={null}>
      <LazyTenantUsageDialog {...props} />
    </Suspense>
  );
}
