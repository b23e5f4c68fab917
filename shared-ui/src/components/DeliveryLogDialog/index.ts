export { DeliveryLogDialog, type DeliveryLogAnswer, type DeliveryLogColumn, type DeliveryLogDialogProps } from './DeliveryLogDialog.js';
