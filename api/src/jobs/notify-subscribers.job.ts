import type { JobDefinition } from './index.js';

export const NOTIFY_SUBSCRIBERS_JOB = 'notify-subscribers';
/** How often the catch-up sweep looks for syncs whose notification step never ran. */
export const NOTIFY_SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Item-subscriber notifications. Normally the sync service's onItemsChanged hook notifies right after a sync
 * commits. This job is the safety net: with `{ syncId }` it notifies that sync; without data (the repeating run
 * every 10 minutes) it sweeps the last 24 hours for successful syncs that changed items but were never marked
 * notified — the process died between the sync's commit and the hook. Both paths are idempotent (a per-sync marker
 * written with the mails, and outbox dedupe keys), so overlapping runs send nothing twice.
 */
export const notifySubscribersJob: JobDefinition = (agenda, ctx) => {
  agenda.define<{ syncId?: number } | undefined>(
    NOTIFY_SUBSCRIBERS_JOB,
    async (job) => {
      const notifications = ctx.services.notifications;
      const syncId = job.attrs.data?.syncId;
      if (typeof syncId === 'number') await notifications.notifySync(syncId);
      else await notifications.sweep();
    },
    { concurrency: 1, lockLifetime: 10 * 60 * 1000 },
  );
};
notifySubscribersJob.schedule = async (agenda) => {
  await agenda.every(NOTIFY_SWEEP_EVERY_MS, NOTIFY_SUBSCRIBERS_JOB);
};
