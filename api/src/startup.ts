import type { AppContext } from './app-context.js';
import { rederiveItems, remakeSafeCopies } from './features/sync/derived-fields.repo.js';
import { initialSyncTask, recoverInterruptedRunsTask } from './features/sync/initial-sync.js';
import { openTriageRecordsTask } from './features/triage/triage-startup.js';
import { environmentTenantTask } from './features/tenants/environment-tenant.js';

export interface StartupEnv {
  isEmbedded: boolean;
}

/**
 * Work run once after the server is up, one task after the other in this order (runs a dead process left behind,
 * values derived from feed text brought up to date, the sanitised copies of item text made, a triage record for every item, the GRAPH_* settings as a tenant, then the first sync on an empty database or demo data offline).
 * A feature adds one line.
 */
export const startupTasks: Array<(ctx: AppContext, env: StartupEnv, stop: AbortSignal) => Promise<void>> = [
  recoverInterruptedRunsTask,
  async (ctx, _env, stop) => void (await rederiveItems(ctx.db, ctx.log, stop)),
  async (ctx, _env, stop) => void (await remakeSafeCopies(ctx.db, ctx.log, stop)),
  openTriageRecordsTask,
  environmentTenantTask,
  initialSyncTask,
];

/**
 * Runs the start-up tasks in order; a failing task is logged and the next one still runs. Once `stop` is aborted (a
 * shutdown began) no further task starts and the long scans end after their current batch: every task is safe to
 * stop there, and the next start does what is left.
 */
export async function runStartupTasks(ctx: AppContext, env: StartupEnv, stop: AbortSignal = new AbortController().signal): Promise<void> {
  for (const task of startupTasks) {
    if (stop.aborted) {
      ctx.log.info('start-up tasks stopped by shutdown: the next start does the rest');
      return;
    }
    try {
      await task(ctx, env, stop);
    } catch (err) {
      ctx.log.error({ err }, 'startup task failed');
    }
  }
}
