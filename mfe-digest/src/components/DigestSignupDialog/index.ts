export { DigestSignupDialog, SIGNUP_FAILED_MESSAGE, type DigestSignupDialogProps } from './DigestSignupDialog.js';
