export { AuthDialog, type AuthDialogProps } from './AuthDialog.js';
export { WELCOME_TOAST } from './useAuthFlow.js';
