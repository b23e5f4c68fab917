import type { JobDefinition } from './index.js';

export const DELIVER_MAIL_JOB = 'deliver-mail';
/** Catches mail whose kick was lost and retries that are due; a sign-in code normally goes out on the kick. */
export const DELIVER_MAIL_EVERY_MS = 10_000;

/**
 * How often the deliver job runs: every DELIVER_MAIL_EVERY_MS, or as often as the first retry delay
 * (MAIL_RETRY_BASE_MS) when that is shorter, so a retry is not held back longer than its own delay; at most once a second.
 */
export const deliverMailEveryMs = (retryBaseMs: number): number => Math.max(1000, Math.min(DELIVER_MAIL_EVERY_MS, retryBaseMs));

/**
 * Sends due mail from the outbox. Runs every 10 s (see deliverMailEveryMs), and at once when a feature kicks it after enqueueing
 * (services.mail.kick()). Idempotent: rows are claimed with SKIP LOCKED, so overlapping runs never double-send.
 */
export const mailDeliveryJob: JobDefinition = (agenda, ctx) => {
  // removeOnComplete drops the one-off runs created by kick(); the repeating job is kept.
  agenda.define(
    DELIVER_MAIL_JOB,
    async () => {
      const result = await ctx.services.mail.deliverNow();
      if (result.sent + result.failed + result.retrying + result.logged > 0) ctx.log.debug({ result }, 'mail delivery run');
    },
    { concurrency: 1, lockLifetime: 5 * 60 * 1000, removeOnComplete: true },
  );
};
mailDeliveryJob.schedule = async (agenda, ctx) => {
  await agenda.every(deliverMailEveryMs(ctx.config.MAIL_RETRY_BASE_MS), DELIVER_MAIL_JOB);
  ctx.services.mail.setKicker(() => agenda.now(DELIVER_MAIL_JOB));
};
