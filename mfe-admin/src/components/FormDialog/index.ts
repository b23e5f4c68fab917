export { FormDialog, type FormDialogProps } from './FormDialog.js';
export { useDialogSave, type SaveProblems } from './use-dialog-save.js';
