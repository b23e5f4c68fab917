import { endpoints } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { perAddressLimiter } from '../../http/rate-limit-store.js';
import { implement, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { renderConfirmPage } from './digest-confirm-page.js';

/** Signups accepted per client address per window (a visitor form: generous for people, tight for scripts). */
export const SIGNUP_LIMIT = { windowMs: 15 * 60 * 1000, limit: 10 };

/**
 * GET /api/weekly-digest (public), POST /api/weekly-digest/signup (public, rate-limited; double opt-in), the
 * confirmation link GET/POST /api/weekly-digest/confirm (GET only shows a Confirm button), the signed-in toggle
 * (subscribe-authenticated / unsubscribe-authenticated) and GET /api/weekly-digest/status for /notifications.
 */
export function createDigestEndpoints(ctx: AppContext): EndpointImplementation[] {
  const digest = ctx.services.digest;
  const signupLimiter = perAddressLimiter({
    name: 'digest-signup',
    ...SIGNUP_LIMIT,
    message: 'Too many signups from this address. Please try again later.',
  });

  return [
    implement(endpoints.digest.weeklyDigest, () => digest.getWeeklyDigest()),
    implement(endpoints.digest.signup, ({ body }) => digest.signup(body), { middleware: [signupLimiter] }),
    implement(endpoints.digest.confirmPage, async ({ query: { token }, res }) => {
      const page = renderConfirmPage(await digest.previewConfirmation(token), {
        formAction: `/api/weekly-digest/confirm?token=${encodeURIComponent(token ?? '')}`,
        publicUrl: ctx.publicUrl,
      });
      res.status(page.status).type('html').send(page.html);
    }),
    implement(endpoints.digest.confirmSubscription, async ({ query: { token }, res }) => {
      const page = renderConfirmPage(await digest.confirmSubscription(token), { formAction: '', publicUrl: ctx.publicUrl });
      res.status(page.status).type('html').send(page.html);
    }),
    implementCallerRead(endpoints.digest.status, (auth) => digest.statusOf(auth.user)),
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
