export type { AuthDialogProps } from './AuthDialog.js';
export { DeferredAuthDialog as AuthDialog } from './DeferredAuthDialog.js';
export { WELCOME_TOAST } from './welcome-toast.js';
