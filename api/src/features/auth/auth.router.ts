import type { Request, Response } from 'express';
import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { SESSION_COOKIE } from '../../http/auth.js';
import { readCookie } from '../../http/cookies.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { AUTH_MESSAGES, type ClientInfo } from './auth.service.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/**
 * Passwordless sign-in (spec 01 §1, §4, §5, §7, §8) and the current-user lookups.
 * Success answers `{ success: true, message }`; every failure is an error body `{ error: { name, message } }` with
 * 400 (validation), 401 (wrong, expired or missing code) or 429 (rate limits, burnt code).
 */
export function createAuthEndpoints(ctx: AppContext): EndpointImplementation[] {
  const auth = ctx.services.auth;
  const client = (req: Request): ClientInfo => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });
  const endSession = async (req: Request, res: Response) => {
    await auth.logout(readCookie(req, SESSION_COOKIE));
    clearSessionCookie(res, ctx.publicUrl);
  };

  return [
    implement(endpoints.auth.signup, ({ body, req }) => auth.signup(body, client(req))),
    implement(endpoints.auth.sendCode, ({ body, req }) => auth.sendCode(body.email, client(req))),
    implement(endpoints.auth.verifyCode, async ({ body, req, res }) => {
      const signedIn = await auth.verifyCode(body.email, body.code, client(req));
      // A session cookie from before sign-in is replaced, never reused (no session fixation).
      await auth.logout(readCookie(req, SESSION_COOKIE));
      setSessionCookie(res, ctx.publicUrl, signedIn.token, signedIn.maxAgeMs);
      return { success: true, message: AUTH_MESSAGES.signedIn };
    }),
    implement(endpoints.auth.logout, async ({ req, res }) => {
      await endSession(req, res);
      return { success: true, message: AUTH_MESSAGES.signedOut };
    }),
    // Navigations used by the shell (mobile menu sign-out, notification page sign-in link).
    implement(endpoints.auth.logoutNavigation, async ({ req, res }) => {
      await endSession(req, res);
      res.redirect(302, '/');
    }),
    implement(endpoints.auth.loginNavigation, ({ res }) => {
      res.redirect(302, '/?signin=1');
    }),
    implement(endpoints.auth.sessionUser, ({ auth: caller, req, res }) => {
      if (!caller) return { user: null };
      // The shell asks this on every page load: renewing the cookie here keeps its lifetime in step with the
      // session's sliding expiry in the database.
      const token = readCookie(req, SESSION_COOKIE);
      if (token) setSessionCookie(res, ctx.publicUrl, token, auth.sessionMaxAgeMs);
      return { user: auth.toUser(caller) };
    }),
    implement(endpoints.auth.user, ({ auth: caller }) => auth.toUser(caller)),
    implement(endpoints.auth.userRoles, ({ auth: caller }) => auth.userRoles(caller)),
    implement(endpoints.auth.moderatorUserRoles, ({ auth: caller }) => auth.userRoles(caller)),
  ];
}
