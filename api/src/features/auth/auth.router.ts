import { Router, type Request, type Response } from 'express';
import { sendCodeRequest, signupRequest, verifyCodeRequest } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAuth, requireSignedIn, SESSION_COOKIE } from '../../http/auth.js';
import { readCookie } from '../../http/cookies.js';
import { parse } from '../../http/validate.js';
import { AUTH_MESSAGES, type ClientInfo } from './auth.service.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/**
 * Passwordless sign-in (spec 01 §1, §4, §5, §7, §8) and the current-user lookups.
 * Success answers `{ success: true, message }`; every failure is an error body `{ error: { name, message } }` with
 * 400 (validation), 401 (wrong, expired or missing code) or 429 (rate limits, burnt code).
 */
export function createAuthRouter(ctx: AppContext): Router {
  const auth = ctx.services.auth;
  const router = Router();
  const client = (req: Request): ClientInfo => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

  router.post('/auth/signup', async (req, res) => {
    const input = parse(signupRequest, req.body);
    res.json(await auth.signup(input, client(req)));
  });

  router.post('/auth/send-code', async (req, res) => {
    const { email } = parse(sendCodeRequest, req.body);
    res.json(await auth.sendCode(email, client(req)));
  });

  router.post('/auth/verify-code', async (req, res) => {
    const { email, code } = parse(verifyCodeRequest, req.body);
    const signedIn = await auth.verifyCode(email, code, client(req));
    // A session cookie from before sign-in is replaced, never reused (no session fixation).
    await auth.logout(readCookie(req, SESSION_COOKIE));
    setSessionCookie(res, ctx.publicUrl, signedIn.token, signedIn.maxAgeMs);
    res.json({ success: true, message: AUTH_MESSAGES.signedIn });
  });

  const endSession = async (req: Request, res: Response) => {
    await auth.logout(readCookie(req, SESSION_COOKIE));
    clearSessionCookie(res, ctx.publicUrl);
  };

  router.post('/auth/logout', async (req, res) => {
    await endSession(req, res);
    res.json({ success: true, message: AUTH_MESSAGES.signedOut });
  });

  // Navigations used by the shell (mobile menu sign-out, notification page sign-in link).
  router.get('/logout', async (req, res) => {
    await endSession(req, res);
    res.redirect(302, '/');
  });
  router.get('/login', (_req, res) => {
    res.redirect(302, '/?signin=1');
  });

  router.get('/auth/session-user', (req, res) => {
    if (!req.auth) {
      res.json({ user: null });
      return;
    }
    // The shell asks this on every page load: renewing the cookie here keeps its lifetime in step with the
    // session's sliding expiry in the database.
    const token = readCookie(req, SESSION_COOKIE);
    if (token) setSessionCookie(res, ctx.publicUrl, token, auth.sessionMaxAgeMs);
    res.json({ user: auth.toUser(req.auth) });
  });

  router.get('/auth/user', (req, res) => {
    res.json(auth.toUser(requireAuth(req)));
  });

  router.get('/auth/user-roles', async (req, res) => {
    res.json(await auth.userRoles(req.auth));
  });

  router.get('/moderator/user/roles', requireSignedIn, async (req, res) => {
    res.json(await auth.userRoles(req.auth));
  });

  return router;
}
