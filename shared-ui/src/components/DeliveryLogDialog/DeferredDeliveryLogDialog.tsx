import { Suspense } from 'react';
import { lazyNamed } from '../../lazy/Deferred.js';
import type { DeliveryLogDialogProps } from './DeliveryLogDialog.js';

const LogDialog = lazyNamed(() => import('./DeliveryLogDialog.js'), 'DeliveryLogDialog');

/**
 * The delivery log as its callers mount it (when it is opened): shared-ui is part of every page's first load, so the
 * dialog's code (MUI's Dialog and Table) is fetched the first time a log is opened, not with the landing page.
 */
export function DeferredDeliveryLogDialog<Row>(props: DeliveryLogDialogProps<Row>) {
  return (
    <Suspense fallback={null}>
      <LogDialog {...props} />
    </Suspense>
  );
}
