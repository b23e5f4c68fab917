import type { JobDefinition } from './index.js';

export const TRIAGE_MAIL_JOB = 'triage-mail';
const EVERY_MS = 15 * 60 * 1000;

/**
 * Every 15 minutes: today's triage counted for Admin → Analytics, today's triage reminders (items due in 7 days, items that became overdue) are recorded, and every
 * user due their daily triage mail gets it. Assignments and mentions also mail at once when the user had no triage
 * mail in the last day; this run sends what waited for the day to pass. On Mondays it also sends the admins'
 * change-health report (once a week per address).
 */
export const triageMailJob: JobDefinition = (agenda, ctx) => {
  agenda.define(
    TRIAGE_MAIL_JOB,
    async () => {
      const done = await ctx.services.triageMail.run();
      if (done.reminders || done.mails || done.reports) ctx.log.info(done, 'triage reminders recorded and mails queued');
    },
    { concurrency: 1, lockLifetime: 10 * 60 * 1000 },
  );
};
triageMailJob.schedule = async (agenda) => {
  await agenda.every(EVERY_MS, TRIAGE_MAIL_JOB);
};
