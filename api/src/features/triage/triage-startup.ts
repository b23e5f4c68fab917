import type { AppContext } from '../../app-context.js';
import { DERIVED_VERSION } from '../sync/derived-fields.js';
import { createTriageStartRepo } from './triage-start.repo.js';
import { createTriageRepo } from './triage.repo.js';

/**
 * The version of the default rules (due date, priority): raise it when `DEFAULT_DUE`, `DEFAULT_PRIORITY_SOURCE` or how
 * relevance moves the priority change, so the next start brings every stored default up to date. The items' derived
 * fields are part of it (a rollout window re-read from the post moves a default due date). 2: relevance moves it.
 */
export const TRIAGE_DEFAULTS_VERSION = `2:${DERIVED_VERSION}`;

/**
 * At start: every item has its triage records (the items stored before triage existed), and when the default rules or
 * the items' derived fields changed since the last start, every record's defaults are brought up to date once. The
 * sync keeps both true from then on, so a normal start does not rewrite 100,000 records' defaults.
 */
export async function openTriageRecordsTask(ctx: AppContext): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const repo = createTriageRepo(tx);
    const upgraded = await createTriageStartRepo(tx).upgradeOnce(ctx.clock.now());
    if (upgraded && (upgraded.removed > 0 || upgraded.closed > 0)) {
      ctx.log.info(upgraded, 'triage starting line: untouched roadmap records removed, records of items past at the line closed before tracking');
    }
    const opened = await repo.openRecords('all', ctx.clock.now());
    if ((await repo.defaultsVersion()) !== TRIAGE_DEFAULTS_VERSION) {
      await repo.refreshDefaults('all');
      await repo.setDefaultsVersion(TRIAGE_DEFAULTS_VERSION, ctx.clock.now());
    }
    if (opened.length > 0) ctx.log.info({ records: opened.length }, 'triage records opened');
  });
}
