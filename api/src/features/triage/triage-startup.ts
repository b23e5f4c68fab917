import type { AppContext } from '../../app-context.js';
import { createTriageRepo } from './triage.repo.js';

/**
 * At start: every item has its triage records and their defaults follow the items (the items stored before triage
 * existed, and any whose derived dates were just brought up to date). The sync keeps both true from then on.
 */
export async function openTriageRecordsTask(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const repo = createTriageRepo(tx);
    const opened = await repo.openRecords('all');
    await repo.refreshDefaults('all');
    if (opened.length > 0) ctx.log.info({ records: opened.length }, 'triage records opened');
  });
}
