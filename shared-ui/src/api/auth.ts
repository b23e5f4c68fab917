import { routes, type SignupRequest, type VerifyCodeRequest } from '@radar/contracts';
import { callEndpoint } from './endpoint-client.js';

/** The passwordless sign-in calls of the auth dialog. */
export const signIn = {
  /** POST /api/auth/signup: creates the account and mails a code. */
  signup: (body: SignupRequest) => callEndpoint(routes.auth.signup, { body }),
  /** POST /api/auth/send-code. */
  sendCode: (email: string) => callEndpoint(routes.auth.sendCode, { body: { email } }),
  /** POST /api/auth/verify-code: sets the session cookie on success. */
  verifyCode: (body: VerifyCodeRequest) => callEndpoint(routes.auth.verifyCode, { body }),
};
