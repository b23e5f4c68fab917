import { resultMessage } from '../common.js';
import { raw, defineEndpoints } from '../endpoint.js';
import { sendCodeRequest, sessionUserResponse, signupRequest, user, userRolesResponse, verifyCodeRequest } from '../auth.js';

/** Passwordless sign-in, sessions and the current user. */
export const authEndpoints = defineEndpoints('auth', {
  signup: {
    method: 'POST',
    path: '/api/auth/signup',
    summary: 'Start a sign-up: e-mails a 6-digit code',
    access: 'public',
    body: signupRequest,
    response: resultMessage,
  },
  sendCode: {
    method: 'POST',
    path: '/api/auth/send-code',
    summary: 'E-mail a 6-digit sign-in code',
    access: 'public',
    body: sendCodeRequest,
    response: resultMessage,
  },
  verifyCode: {
    method: 'POST',
    path: '/api/auth/verify-code',
    summary: 'Sign in with the e-mailed code; sets the session cookie',
    access: 'public',
    body: verifyCodeRequest,
    response: resultMessage,
  },
  logout: {
    method: 'POST',
    path: '/api/auth/logout',
    summary: 'Sign out of this session',
    access: 'public',
    response: resultMessage,
  },
  logoutEverywhere: {
    method: 'POST',
    path: '/api/auth/logout-everywhere',
    summary: "Sign out everywhere: end every session of the caller's account, this one included",
    access: 'signedIn',
    response: resultMessage,
  },
  logoutNavigation: {
    method: 'GET',
    path: '/api/logout',
    summary: 'Sign-out navigation (the mobile menu): a page that signs out by a same-origin POST; changes nothing itself',
    access: 'public',
    response: raw('text/html'),
  },
  logoutForm: {
    method: 'POST',
    path: '/api/logout',
    summary: "The sign-out page's form: ends this session and redirects to /?signedOut=1",
    access: 'public',
    status: [303],
    response: raw('redirect'),
  },
  loginNavigation: {
    method: 'GET',
    path: '/api/login',
    summary: 'Sign-in navigation: the home page with the sign-in dialog open',
    access: 'public',
    status: [302],
    response: raw('redirect'),
  },
  sessionUser: {
    method: 'GET',
    path: '/api/auth/session-user',
    summary: 'The signed-in user, or { user: null }',
    access: 'public',
    response: sessionUserResponse,
  },
  user: {
    method: 'GET',
    path: '/api/auth/user',
    summary: 'The signed-in user (401 when signed out)',
    access: 'signedIn',
    tokenAccess: true,
    response: user,
  },
  userRoles: {
    method: 'GET',
    path: '/api/auth/user-roles',
    summary: "The caller's effective roles (empty for guests)",
    access: 'public',
    tokenAccess: true,
    response: userRolesResponse,
  },
  moderatorUserRoles: {
    method: 'GET',
    path: '/api/moderator/user/roles',
    summary: "The caller's effective roles (refetched after impersonation)",
    access: 'signedIn',
    response: userRolesResponse,
  },
});
