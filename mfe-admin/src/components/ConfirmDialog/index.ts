export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog.js';
export { useConfirmation } from './useConfirmation.js';
