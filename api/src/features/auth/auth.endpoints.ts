import type { Request, Response } from 'express';
import { endpoints, PRODUCT_NAME, SIGN_IN_PARAM, SIGNED_OUT_PARAM } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import type { RequestAuth } from '../../http/auth.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { NotFoundError } from '../../lib/errors.js';
import { renderActionPage } from '../../http/html-page.js';
import { nonceOf } from '../../http/security-headers.js';
import { AUTH_MESSAGES, type ClientInfo } from './auth.service.js';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.js';

/** The request's client for session records (the address is the socket's unless TRUST_PROXY says otherwise). */
export const clientOf = (req: Request): ClientInfo => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

/**
 * After a role change that affected the caller: the change ended all their sessions (the user_roles trigger), so the
 * answer carries a new session cookie; they stay signed in with a token issued after the change.
 */
export async function renewOwnSessionAfterRoleChange(ctx: AppContext, caller: RequestAuth, req: Request, res: Response): Promise<void> {
  const renewed = await ctx.services.auth.sessions.renewIfEnded(caller, clientOf(req));
  if (renewed) setSessionCookie(res, ctx.publicUrl, renewed.token, renewed.maxAgeMs);
}

/**
 * Passwordless sign-in, sign-out and the current-user lookups.
 * Success answers `{ success: true, message }`; every failure is an error body `{ error: { name, message } }` with
 * 400 (validation), 401 (wrong, expired or missing code) or 429 (rate limits, burnt code, cool-down).
 */
export function createAuthEndpoints(ctx: AppContext): EndpointImplementation[] {
  const auth = ctx.services.auth;
  const endSession = async (req: Request, res: Response) => {
    await auth.sessions.end(readSessionCookie(req, ctx.publicUrl));
    clearSessionCookie(res, ctx.publicUrl);
  };

  return [
    implement(endpoints.auth.signup, ({ body, req }) => auth.signup(body, clientOf(req))),
    implement(endpoints.auth.sendCode, ({ body, req }) => auth.sendCode(body.email, clientOf(req))),
    implement(endpoints.auth.verifyCode, async ({ body, req, res }) => {
      const signedIn = await auth.verifyCode(body.email, body.code, clientOf(req));
      // A session cookie from before sign-in is replaced, never reused (no session fixation).
      await auth.sessions.end(readSessionCookie(req, ctx.publicUrl));
      setSessionCookie(res, ctx.publicUrl, signedIn.token, signedIn.maxAgeMs);
      return { success: true, message: AUTH_MESSAGES.signedIn };
    }),
    implement(endpoints.auth.logout, async ({ req, res }) => {
      await endSession(req, res);
      return { success: true, message: AUTH_MESSAGES.signedOut };
    }),
    implement(endpoints.auth.sessions, ({ auth: caller }) => auth.sessions.list(caller.user.id, caller.sessionIdHash)),
    implement(endpoints.auth.revokeSession, async ({ auth: caller, params, res }) => {
      if (!(await auth.sessions.revoke(caller.user.id, params.id))) throw new NotFoundError(`You have no session ${params.id}`);
      // Ending this very session signs out here.
      if (caller.sessionIdHash.startsWith(params.id)) clearSessionCookie(res, ctx.publicUrl);
      ctx.log.info({ userId: caller.user.id }, 'a session ended by its user');
      return { success: true, message: 'Session ended' };
    }),
    implement(endpoints.auth.logoutEverywhere, async ({ auth: caller, body, res }) => {
      const { sessions: ended, revokedTokens } = await auth.sessions.endAll(caller.user.id, { revokeTokens: body?.revokeTokens });
      clearSessionCookie(res, ctx.publicUrl);
      ctx.log.info({ userId: caller.user.id, sessions: ended, revokedTokens }, 'signed out everywhere');
      return { success: true, message: AUTH_MESSAGES.signedOutEverywhere, revokedTokens };
    }),
    // The mobile menu's sign-out navigation. A GET changes nothing (another site could link here): the page signs out
    // by POSTing its form. A navigation from our own pages (Sec-Fetch-Site: same-origin, which no other site can
    // send) submits it at once; any other asks first.
    implement(endpoints.auth.logoutNavigation, ({ auth: caller, req, res }) => {
      const page = caller
        ? renderActionPage({
            title: 'Sign out?',
            paragraphs: [`You are signed in to ${PRODUCT_NAME} as ${caller.user.email}.`],
            form: { action: '/api/logout', button: 'Sign out' },
            autoSubmitNonce: req.get('sec-fetch-site') === 'same-origin' ? nonceOf(res) : undefined,
            link: { href: '/', label: `Stay signed in and go to ${PRODUCT_NAME}` },
          })
        : renderActionPage({ title: 'You are signed out', paragraphs: [], link: { href: '/', label: `Go to ${PRODUCT_NAME}` } });
      res.type('html').send(page);
    }),
    implement(endpoints.auth.logoutForm, async ({ req, res }) => {
      await endSession(req, res);
      res.redirect(303, `/?${SIGNED_OUT_PARAM}=1`);
    }),
    implement(endpoints.auth.loginNavigation, ({ res }) => {
      res.redirect(302, `/?${SIGN_IN_PARAM}=1`);
    }),
    implement(endpoints.auth.sessionUser, ({ auth: caller, req, res }) => {
      if (!caller) return auth.sessionAnswer(null);
      // The shell asks this on every page load: renewing the cookie here keeps its lifetime in step with the
      // session's expiry in the database (idle timeout and absolute lifetime).
      const token = readSessionCookie(req, ctx.publicUrl);
      if (token) setSessionCookie(res, ctx.publicUrl, token, auth.sessions.maxAgeOf(caller));
      return auth.sessionAnswer(caller);
    }),
    implement(endpoints.auth.user, ({ auth: caller }) => auth.toUser(caller)),
    implement(endpoints.auth.userRoles, ({ auth: caller }) => auth.userRoles(caller)),
    implement(endpoints.auth.moderatorUserRoles, ({ auth: caller }) => auth.userRoles(caller)),
  ];
}
