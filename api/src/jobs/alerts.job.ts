import type { JobDefinition } from './index.js';

export const DELIVER_ALERTS_JOB = 'deliver-alerts';
export const SAVED_SEARCH_DIGESTS_JOB = 'saved-search-digests';
export const ALERT_SWEEP_JOB = 'alert-sweep';
/** Retries that are due, and deliveries whose kick was lost; a new alert normally goes out on the kick. */
export const DELIVER_ALERTS_EVERY_MS = 10_000;
/** Digests are due on the hour in each search's time zone: checked every minute. */
export const DIGESTS_EVERY_MS = 60_000;
export const ALERT_SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Saved-search alerts on Agenda, safe with several processes: deliveries are claimed FOR UPDATE SKIP LOCKED, a digest
 * slot is claimed by a conditional UPDATE of its saved search, a sync's instant alerts by a marker row, and every
 * message has a dedupe key, so overlapping runs (or two job processes) send nothing twice.
 */
export const alertsJob: JobDefinition = (agenda, ctx) => {
  agenda.define(
    DELIVER_ALERTS_JOB,
    async () => {
      const result = await ctx.services.alerts.deliverNow();
      if (result.sent + result.failed + result.retrying > 0) ctx.log.debug({ result }, 'alert delivery run');
    },
    { concurrency: 1, lockLifetime: 5 * 60 * 1000, removeOnComplete: true },
  );
  agenda.define(
    SAVED_SEARCH_DIGESTS_JOB,
    async () => {
      await ctx.services.alerts.runDigests(ctx.clock.now());
    },
    { concurrency: 1, lockLifetime: 10 * 60 * 1000 },
  );
  agenda.define<{ syncId?: number } | undefined>(
    ALERT_SWEEP_JOB,
    async (job) => {
      const syncId = job.attrs.data?.syncId;
      if (typeof syncId === 'number') await ctx.services.alerts.alertSync(syncId);
      else await ctx.services.alerts.sweep();
    },
    { concurrency: 1, lockLifetime: 10 * 60 * 1000 },
  );
};
alertsJob.schedule = async (agenda, ctx) => {
  await agenda.every(DELIVER_ALERTS_EVERY_MS, DELIVER_ALERTS_JOB);
  await agenda.every(DIGESTS_EVERY_MS, SAVED_SEARCH_DIGESTS_JOB);
  await agenda.every(ALERT_SWEEP_EVERY_MS, ALERT_SWEEP_JOB);
  ctx.services.alerts.setKicker(() => agenda.now(DELIVER_ALERTS_JOB));
};
