// ConfirmDialog itself is not exported: the provider loads it on first use, so no page bundles it eagerly.
export type { ConfirmDialogProps, ConfirmOptions } from './ConfirmDialog.js';
export { DialogsProvider, useDialogs, type DialogProps, type Dialogs } from './DialogsProvider.js';
