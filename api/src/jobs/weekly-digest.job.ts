import { digestCron } from '../features/digest/week-range.js';
import type { JobDefinition } from './index.js';

export const WEEKLY_DIGEST_JOB = 'weekly-digest';

/**
 * Every Sunday at DIGEST_SEND_HOUR in DIGEST_TIMEZONE (a cron rule with Agenda's timezone option, so the hour
 * follows daylight saving time). If the process was down at that moment, Agenda runs the overdue job when it comes
 * back. Running it twice in a week, or resuming after a crash, sends nobody a second digest (digest_deliveries).
 */
export const weeklyDigestJob: JobDefinition = (agenda, ctx) => {
  agenda.define(
    WEEKLY_DIGEST_JOB,
    async () => {
      await (ctx.services.digest).sendWeeklyDigest({ now: ctx.clock.now() });
    },
    { concurrency: 1, lockLifetime: 30 * 60 * 1000 },
  );
};
weeklyDigestJob.schedule = async (agenda, ctx) => {
  await agenda.every(digestCron(ctx.config.DIGEST_SEND_HOUR), WEEKLY_DIGEST_JOB, undefined, {
    timezone: ctx.config.DIGEST_TIMEZONE,
    skipImmediate: true,
  });
};
