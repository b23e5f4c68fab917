export { ConfirmDialog, useConfirm, type ConfirmDialogProps } from './ConfirmDialog.js';
