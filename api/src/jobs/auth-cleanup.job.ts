import { createOAuthStatesRepo } from '../features/trackers/oauth-states.repo.js';
import { sweepRateLimitHits } from '../http/rate-limit-hits.repo.js';
import type { JobDefinition } from './index.js';

export const AUTH_CLEANUP_JOB = 'auth-cleanup';
const EVERY_MS = 60 * 60 * 1000;

/**
 * Hourly removal of expired secrets and half-finished sign-ups: expired sessions, sign-in codes and failures older than
 * a day (kept that long for the rate limits), sign-ups whose code expired unverified, the encrypted content of outbox
 * mail that was sent, failed or expired, and weekly-digest signups whose confirmation link expired unconfirmed; and
 * the mails to owners of API tokens that expire within a week, and the removal of tokens expired a month ago; and
 * rate-limit counts whose window is over and tracker OAuth consents never completed.
 */
export const authCleanupJob: JobDefinition = (agenda, ctx) => {
  agenda.define(AUTH_CLEANUP_JOB, async () => {
    const removed = {
      ...(await ctx.services.auth.cleanup()),
      unconfirmedDigestSignups: await ctx.services.digest.expireConfirmations(),
      rateLimitCounts: await sweepRateLimitHits(ctx.db),
      expiredOAuthConsents: await createOAuthStatesRepo(ctx.db).sweep(ctx.clock.now()),
    };
    if (Object.values(removed).some((n) => n > 0))
      ctx.log.info(removed, 'expired sessions, codes, sign-ups, mail secrets, rate-limit counts and OAuth consents removed');
    const tokens = await ctx.services.tokens.noticeAndPrune();
    if (tokens.expiryNotices || tokens.expiredTokensDeleted) ctx.log.info(tokens, 'API token expiry notices mailed, long-expired tokens deleted');
  });
};
authCleanupJob.schedule = async (agenda) => {
  await agenda.every(EVERY_MS, AUTH_CLEANUP_JOB);
};
