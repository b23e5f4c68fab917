import type { Agenda } from 'agenda';
import type { AppContext } from '../app-context.js';
import { SyncAlreadyRunningError } from '../features/sync/sync.service.js';
import { createTenantsRepo } from '../features/tenants/tenants.repo.js';
import type { JobDefinition } from './index.js';

export const TENANT_SYNC_JOB = 'sync-tenant-messages';
export const TENANT_SCHEDULE_JOB = 'schedule-tenant-syncs';
/** How often the tenant jobs are checked against the tenants (an added, disabled or removed tenant). */
const SCHEDULE_CHECK = '5 minutes';

/**
 * Where in the interval a tenant's runs fall: spread by its id (the golden-ratio sequence keeps any number of tenants
 * apart), so 200 tenants do not all ask Graph at the top of the hour and the round's load is even.
 */
export function staggerOffsetMs(tenantId: number, intervalMs: number): number {
  return Math.floor(((tenantId * 0.6180339887) % 1) * intervalMs);
}

/**
 * One Agenda job per enabled tenant (its Message Center, its Service Health, once a day its usage, then its items'
 * relevance), repeating every MESSAGE_SYNC_INTERVAL_MS from its staggered start, kept in step
 * with the tenants: a job is added for a new or enabled tenant and removed for a disabled or removed one. Agenda's
 * lock makes each tenant's job run on one worker process at a time; the sync service's per-tenant lock covers admin
 * triggers and other processes.
 */
export async function scheduleTenantJobs(
  agenda: Agenda,
  ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'log'>,
): Promise<{ added: number[]; removed: number[] }> {
  const interval = ctx.config.MESSAGE_SYNC_INTERVAL_MS;
  const enabled = await createTenantsRepo(ctx.db).enabled();
  const { jobs } = await agenda.queryJobs({ name: TENANT_SYNC_JOB });
  const scheduled = new Set(jobs.map((job) => Number((job.data as { tenantId?: number } | undefined)?.tenantId)));
  const wanted = new Set(enabled.map((t) => t.id));
  const now = ctx.clock.now().getTime();
  const added: number[] = [];
  for (const tenant of enabled) {
    if (scheduled.has(tenant.id)) continue;
    await agenda
      .create(TENANT_SYNC_JOB, { tenantId: tenant.id })
      .repeatEvery(interval, { skipImmediate: true })
      .schedule(new Date(now + staggerOffsetMs(tenant.id, interval)))
      .unique({ 'data.tenantId': tenant.id }, { insertOnly: true })
      .save();
    added.push(tenant.id);
  }
  const removed = [...scheduled].filter((id) => !wanted.has(id));
  for (const id of removed) await agenda.cancel({ name: TENANT_SYNC_JOB, data: { tenantId: id } });
  if (added.length || removed.length) ctx.log.info({ added, removed }, 'tenant sync jobs updated');
  return { added, removed };
}

export const tenantSyncJobs: JobDefinition = (agenda, ctx) => {
  const concurrency = ctx.config.GRAPH_MAX_CONCURRENT_TENANTS;
  agenda.define<{ tenantId: number }>(
    TENANT_SYNC_JOB,
    async (job) => {
      const tenant = await createTenantsRepo(ctx.db).get(Number(job.attrs.data.tenantId));
      // Disabled or removed since: nothing to read; the schedule check removes the job.
      if (!tenant?.enabled) return;
      // The tenant's two feeds, each its own run: Message Center, then Service Health. One failing (recorded in Sync
      // History) never skips the other.
      const target = { id: tenant.id, name: tenant.name };
      const feeds = [
        { label: 'Message Center', sync: () => ctx.services.sync.syncTenant(target, { trigger: 'schedule' }) },
        { label: 'Service Health', sync: () => ctx.services.sync.syncTenantHealth(target, { trigger: 'schedule' }) },
      ];
      const errors: Error[] = [];
      for (const feed of feeds) {
        try {
          await feed.sync();
        } catch (err) {
          if (err instanceof SyncAlreadyRunningError)
            ctx.log.info({ tenant: tenant.name }, `tenant ${feed.label} sync already running elsewhere; this run is skipped`);
          else errors.push(err as Error);
        }
      }
      // Then its usage reports, when a day has passed since they were read (an hour since a failed read), and its items'
      // relevance (its usage, its licences, read with Service Health, or the posts it lists may have changed). Neither
      // fails the tenant's run.
      await ctx.services.tenantFollowUp(tenant.id, { usageNow: false });
      if (errors[0]) throw errors[0];
    },
    // At most GRAPH_MAX_CONCURRENT_TENANTS tenants at once per process; one slow tenant never holds up the others.
    { concurrency, lockLimit: concurrency },
  );
  agenda.define(TENANT_SCHEDULE_JOB, async () => void (await scheduleTenantJobs(agenda, ctx)), { concurrency: 1, lockLimit: 1 });
};
tenantSyncJobs.schedule = async (agenda, ctx) => {
  await scheduleTenantJobs(agenda, ctx);
  await agenda.every(SCHEDULE_CHECK, TENANT_SCHEDULE_JOB, undefined, { skipImmediate: true });
};
