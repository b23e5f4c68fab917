export { SaveSearchDialog, type SaveSearchDialogProps } from './SaveSearchDialog.js';
