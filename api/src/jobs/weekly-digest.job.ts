import { digestCron } from '../features/digest/week-range.js';
import type { JobDefinition } from './index.js';

export const WEEKLY_DIGEST_JOB = 'weekly-digest';
/** The same work, checked every hour and at start-up: sends a digest that is due and not done (catch-up, resume). */
export const WEEKLY_DIGEST_CATCH_UP_JOB = 'weekly-digest-catch-up';
export const DIGEST_CATCH_UP_EVERY_MS = 60 * 60 * 1000;

/**
 * Every Sunday at DIGEST_SEND_HOUR in DIGEST_TIMEZONE (a cron rule with Agenda's timezone option, so the hour
 * follows daylight saving time), plus an hourly catch-up that also runs when the process starts. Agenda alone does
 * not run a missed Sunday: `every()` at start-up moves the job to the next Sunday. Both call sendDueWeeklyDigest,
 * which sends only from the week's send time on and only until a run completes, so the catch-up sends the Sunday
 * missed during downtime (same week) and resumes a run that failed halfway. Each subscriber gets one digest a week
 * (digest_deliveries), whichever process or job sends it.
 */
export const weeklyDigestJob: JobDefinition = (agenda, ctx) => {
  const handler = async () => {
    await ctx.services.digest.sendDueWeeklyDigest({ now: ctx.clock.now() });
  };
  agenda.define(WEEKLY_DIGEST_JOB, handler, { concurrency: 1, lockLifetime: 30 * 60 * 1000 });
  agenda.define(WEEKLY_DIGEST_CATCH_UP_JOB, handler, { concurrency: 1, lockLifetime: 30 * 60 * 1000 });
};
weeklyDigestJob.schedule = async (agenda, ctx) => {
  await agenda.every(digestCron(ctx.config.DIGEST_SEND_HOUR), WEEKLY_DIGEST_JOB, undefined, {
    timezone: ctx.config.DIGEST_TIMEZONE,
    skipImmediate: true,
  });
  await agenda.every(DIGEST_CATCH_UP_EVERY_MS, WEEKLY_DIGEST_CATCH_UP_JOB);
};
