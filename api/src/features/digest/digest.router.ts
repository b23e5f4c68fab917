import { rateLimit } from 'express-rate-limit';
import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, type EndpointImplementation } from '../../http/endpoints.js';
import { RateLimitError } from '../../http/errors.js';

/** Signups accepted per client address per window (a visitor form: generous for people, tight for scripts). */
export const SIGNUP_LIMIT = { windowMs: 15 * 60 * 1000, limit: 10 };

/**
 * GET /api/weekly-digest (public), POST /api/weekly-digest/signup (public, rate-limited), the signed-in toggle
 * (subscribe-authenticated / unsubscribe-authenticated) and GET /api/weekly-digest/status for /notifications.
 */
export function createDigestEndpoints(ctx: AppContext): EndpointImplementation[] {
  const digest = ctx.services.digest;
  const signupLimiter = rateLimit({
    ...SIGNUP_LIMIT,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError('Too many signups from this address. Please try again later.')),
  });

  return [
    implement(endpoints.digest.weeklyDigest, () => digest.getWeeklyDigest()),
    implement(endpoints.digest.signup, ({ body }) => digest.signup(body), { middleware: [signupLimiter] }),
    implement(endpoints.digest.status, ({ auth }) => digest.statusOf(auth.user)),
    implement(endpoints.digest.subscribe, async ({ auth }) => {
      const status = await digest.subscribeUser(auth.user);
      return { success: true, message: 'Successfully subscribed to the weekly digest', ...status };
    }),
    implement(endpoints.digest.unsubscribe, async ({ auth }) => {
      const status = await digest.unsubscribeUser(auth.user);
      return { success: true, message: 'Successfully unsubscribed from the weekly digest', ...status };
    }),
  ];
}
