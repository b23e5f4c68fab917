import type { AppContext } from '../../app-context.js';
import { demoRecords } from '../../demo/demo-data.js';
import type { StartupEnv } from '../../startup.js';
import { lastSuccessfulRun } from './sync-history.repo.js';
import { countItems } from './sync.repo.js';
import { SyncAlreadyRunningError, SyncShuttingDownError, type SyncService } from './sync.service.js';

/**
 * After the server is up: on an empty database, sync both sources at once instead of waiting for the schedule.
 * When that first roadmap sync fails on the embedded default (typically: no network) and DEMO_DATA=auto, the shipped
 * demo data set is loaded so the product can be explored; it is flagged and logged, and the next successful live
 * sync replaces it. On a database with data, a source whose last success is older than its interval syncs now
 * (the repeating jobs skip their immediate run, so restarts do not each cost a full fetch).
 */
export async function initialSyncTask(ctx: AppContext, env: StartupEnv): Promise<void> {
  try {
    await firstSyncs(ctx, env);
  } catch (err) {
    // A shutdown that began during start-up: the syncs not started yet simply do not run. Another process
    // starting at the same time (several replicas on one database) runs the first sync instead of this one.
    if (err instanceof SyncAlreadyRunningError) ctx.log.info('another process is running the first sync');
    else if (!(err instanceof SyncShuttingDownError)) throw err;
  }
}

/**
 * Start-up task that runs first: sync runs left 'running' by a process that died (kill -9, a crash, power loss) are
 * marked interrupted. Their transactions never committed, so the items are as the previous run left them.
 */
export async function recoverInterruptedRunsTask(ctx: AppContext): Promise<void> {
  await ctx.services.sync.recoverInterruptedRuns();
}

async function firstSyncs(ctx: AppContext, env: StartupEnv): Promise<void> {
  const { config, db, log, clock } = ctx;
  const sync: SyncService = ctx.services.sync;
  if (!config.JOBS_ENABLED) return;
  const run = (what: () => Promise<unknown>) =>
    what().catch((err) => {
      if (err instanceof SyncShuttingDownError) return;
      log.warn({ err: (err as Error).message }, 'startup sync skipped');
    });

  if ((await countItems(db)) === 0) {
    log.info('empty database: running the first Roadmap and Message Center sync');
    const roadmap = await sync.syncRoadmap({ trigger: 'startup' });
    if (roadmap.run.status === 'interrupted') return;
    if (roadmap.run.status !== 'success' && env.isEmbedded && config.DEMO_DATA === 'auto') {
      const demo = demoRecords(clock.now());
      await sync.applyRoadmap(demo.roadmap, { trigger: 'demo', demo: true });
      await sync.applyMessages(demo.messages, { trigger: 'demo', demo: true });
      log.warn(
        { roadmapItems: demo.roadmap.length, messages: demo.messages.length, reason: roadmap.run.errorMessage },
        'DEMO DATA LOADED: the live roadmap feed could not be reached, so the shipped demo data set is shown. It is replaced by the next successful sync.',
      );
      return;
    }
    await run(() => sync.syncMessageCenter({ trigger: 'startup' }));
    return;
  }

  const now = clock.now().getTime();
  const stale = async (source: 'roadmap' | 'message_center', everyMs: number) => {
    const last = await lastSuccessfulRun(db, source);
    return !last || now - last.startedAt.getTime() >= everyMs;
  };
  if (await stale('roadmap', config.ROADMAP_SYNC_INTERVAL_MS)) await run(() => sync.syncRoadmap({ trigger: 'startup' }));
  if (await stale('message_center', config.MESSAGE_SYNC_INTERVAL_MS)) await run(() => sync.syncMessageCenter({ trigger: 'startup' }));
}
