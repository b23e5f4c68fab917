import { TRACKER_PULL_MINUTES } from '@radar/contracts';
import type { JobDefinition } from './index.js';

export const DELIVER_TRACKERS_JOB = 'deliver-trackers';
export const PULL_TRACKERS_JOB = 'pull-trackers';
/** Retries that are due, and calls whose kick was lost; a push normally goes out at once. */
export const DELIVER_TRACKERS_EVERY_MS = 30_000;

/**
 * How often the deliver job runs: every DELIVER_TRACKERS_EVERY_MS, or as often as the first retry delay
 * (TRACKER_RETRY_BASE_MS) when that is shorter, so a retry is not held back longer than its own delay; at most once a
 * second.
 */
export const deliverTrackersEveryMs = (retryBaseMs: number): number => Math.max(1000, Math.min(DELIVER_TRACKERS_EVERY_MS, retryBaseMs));

/**
 * Work trackers on Agenda, safe with several processes: calls are claimed FOR UPDATE SKIP LOCKED with a lease, and a
 * pull reads each linked task and writes what changed under a lock of its record, so overlapping runs change nothing
 * twice. The pull run also queues the comments of the last day's syncs a crash may have missed, and drops log entries and finished calls older than 30 days.
 */
export const trackersJob: JobDefinition = (agenda, ctx) => {
  agenda.define(
    DELIVER_TRACKERS_JOB,
    async () => {
      const result = await ctx.services.trackers.deliverNow();
      if (result.sent + result.failed + result.retrying > 0) ctx.log.debug({ result }, 'tracker delivery run');
    },
    { concurrency: 1, lockLifetime: 5 * 60 * 1000, removeOnComplete: true },
  );
  agenda.define(
    PULL_TRACKERS_JOB,
    async () => {
      const read = await ctx.services.trackers.pullAll();
      if (read > 0) ctx.log.info({ read }, 'tracker tasks read');
      const caughtUp = await ctx.services.trackers.sweepComments();
      if (caughtUp > 0) ctx.log.warn({ comments: caughtUp }, 'tracker comments caught up for syncs whose hook did not run');
      await ctx.services.trackers.prune();
    },
    { concurrency: 1, lockLifetime: 14 * 60 * 1000 },
  );
};
trackersJob.schedule = async (agenda, ctx) => {
  await agenda.every(deliverTrackersEveryMs(ctx.config.TRACKER_RETRY_BASE_MS), DELIVER_TRACKERS_JOB);
  await agenda.every(TRACKER_PULL_MINUTES * 60 * 1000, PULL_TRACKERS_JOB);
  ctx.services.trackers.setKicker(() => agenda.now(DELIVER_TRACKERS_JOB));
};
