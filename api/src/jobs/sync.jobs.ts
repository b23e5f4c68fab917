import type { SyncService } from '../features/sync/sync.service.js';
import { SyncAlreadyRunningError } from '../features/sync/sync.service.js';
import type { JobDefinition } from './index.js';
import { createTenantsRepo } from '../features/tenants/tenants.repo.js';
import { scheduleTenantJobs } from './tenant-sync.jobs.js';

export const ROADMAP_SYNC_JOB = 'sync-roadmap';
export const MESSAGE_SYNC_JOB = 'sync-message-center';

/**
 * Roadmap every ROADMAP_SYNC_INTERVAL_MS, Message Center every MESSAGE_SYNC_INTERVAL_MS (both 1 h by default).
 * concurrency 1 + lockLimit 1 keep Agenda from running two of one job on a worker; the sync service's advisory
 * lock covers other workers and admin triggers. A feed failure is recorded in sync history by the service, so the
 * job itself does not fail (Agenda would only log it twice).
 */
export const syncJobs: JobDefinition = (agenda, ctx) => {
  const sync: SyncService = ctx.services.sync;
  // Lock lifetime comes from the runner (defaultLockLifetime), so tests can keep it short.
  const options = { concurrency: 1, lockLimit: 1 };
  const guard = (name: string, run: () => Promise<unknown>) => async () => {
    try {
      await run();
    } catch (err) {
      if (err instanceof SyncAlreadyRunningError) ctx.log.info({ job: name }, 'sync already running elsewhere; this run is skipped');
      else throw err;
    }
  };
  agenda.define(
    ROADMAP_SYNC_JOB,
    guard(ROADMAP_SYNC_JOB, () => sync.syncRoadmap({ trigger: 'schedule' })),
    options,
  );
  agenda.define(
    MESSAGE_SYNC_JOB,
    // With tenants, each tenant has its own job (tenant-sync.jobs.ts), and this one only makes sure those jobs exist
    // (a tenant made at start-up after the jobs were scheduled waits one interval, not the 5-minute check). Without
    // any tenant it reads Message Center unscoped.
    guard(MESSAGE_SYNC_JOB, async () => {
      if ((await createTenantsRepo(ctx.db).enabled()).length > 0) {
        await scheduleTenantJobs(agenda, ctx);
        return;
      }
      await sync.syncMessageCenter({ trigger: 'schedule' });
    }),
    options,
  );
};
syncJobs.schedule = async (agenda, ctx) => {
  // skipImmediate: the startup task syncs at once when the data is empty or stale.
  await agenda.every(ctx.config.ROADMAP_SYNC_INTERVAL_MS, ROADMAP_SYNC_JOB, undefined, { skipImmediate: true });
  await agenda.every(ctx.config.MESSAGE_SYNC_INTERVAL_MS, MESSAGE_SYNC_JOB, undefined, { skipImmediate: true });
};
