import { Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import { weeklyDigestSignup } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { requireAuth, requireSignedIn } from '../../http/auth.js';
import { RateLimitError } from '../../http/errors.js';
import { parse } from '../../http/validate.js';

/** Signups accepted per client address per window (a visitor form: generous for people, tight for scripts). */
export const SIGNUP_LIMIT = { windowMs: 15 * 60 * 1000, limit: 10 };

/**
 * GET /api/weekly-digest (public), POST /api/weekly-digest/signup (public, rate-limited), the signed-in toggle
 * (subscribe-authenticated / unsubscribe-authenticated) and GET /api/weekly-digest/status for /notifications.
 */
export function createDigestRouter(ctx: AppContext): Router {
  const digest = ctx.services.digest;
  const router = Router();
  const signupLimiter = rateLimit({
    ...SIGNUP_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError('Too many signups from this address. Please try again later.')),
  });

  router.get('/weekly-digest', async (_req, res) => {
    res.json(await digest.getWeeklyDigest());
  });

  router.post('/weekly-digest/signup', signupLimiter, async (req, res) => {
    const input = parse(weeklyDigestSignup, req.body);
    res.json(await digest.signup(input));
  });

  router.get('/weekly-digest/status', requireSignedIn, async (req, res) => {
    res.json(await digest.statusOf(requireAuth(req).user));
  });

  router.post('/weekly-digest/subscribe-authenticated', requireSignedIn, async (req, res) => {
    const status = await digest.subscribeUser(requireAuth(req).user);
    res.json({ success: true, message: 'Successfully subscribed to the weekly digest', ...status });
  });

  router.post('/weekly-digest/unsubscribe-authenticated', requireSignedIn, async (req, res) => {
    const status = await digest.unsubscribeUser(requireAuth(req).user);
    res.json({ success: true, message: 'Successfully unsubscribed from the weekly digest', ...status });
  });

  return router;
}
