export type { DeliveryLogAnswer, DeliveryLogColumn, DeliveryLogDialogProps } from './DeliveryLogDialog.js';
export { DeferredDeliveryLogDialog as DeliveryLogDialog } from './DeferredDeliveryLogDialog.js';
