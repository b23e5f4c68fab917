export { ConfirmDialog, type ConfirmDialogProps, type ConfirmOptions } from './ConfirmDialog.js';
export { DialogsProvider, useDialogs, type Dialogs } from './DialogsProvider.js';
