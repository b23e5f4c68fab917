import { endpoints, type SyncHistoryRecord } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';
import type { SyncResult, SyncService } from './sync.service.js';
import { listRuns, toSyncHistoryRecord } from './sync-history.repo.js';
import { createChangeHistoryRepo } from './change-history.repo.js';

/**
 * Admin sync triggers and the two admin history lists. A trigger runs the sync and answers with its sync-history
 * record: 200 on success, unchanged or held (the snapshot guard kept it for a decision), 502 when the feed failed
 * (nothing changed), 503 when Graph is not configured, 409 when a sync of that source is already running.
 */
export function createSyncRunsEndpoints(ctx: AppContext): EndpointImplementation[] {
  const sync: SyncService = ctx.services.sync;
  const history = createChangeHistoryRepo(ctx.db);

  function answer(label: string, { run }: SyncResult): { message: string; sync: SyncHistoryRecord } | Reply {
    if (run.status === 'success') {
      return {
        message: `${label} sync finished: ${run.newItems} new, ${run.changedItems} changed, ${run.removedItems} removed, ${run.restoredItems} restored`,
        sync: run,
      };
    }
    // The run did its job: nothing new, or a suspicious snapshot kept for an admin's decision (see the list).
    if (run.status === 'unchanged') return { message: `${label} feed unchanged since the last sync: nothing to apply`, sync: run };
    if (run.status === 'held') return { message: `${label} snapshot held for an admin: ${run.note ?? ''}`.trim(), sync: run };
    const notConfigured = run.status === 'not_configured';
    return Reply.status(notConfigured ? 503 : 502, {
      error: { name: notConfigured ? 'NotConfiguredError' : 'SyncFailedError', message: run.errorMessage ?? `${label} sync failed` },
      sync: run,
    });
  }

  return [
    implement(endpoints.sync.syncRoadmap, async ({ auth }) => answer('Roadmap', await sync.syncRoadmap({ trigger: 'admin', triggeredBy: auth.user.id }))),
    implement(endpoints.sync.syncMessageCenter, async ({ auth }) =>
      answer('Message Center', await sync.syncMessages({ trigger: 'admin', triggeredBy: auth.user.id })),
    ),
    implement(endpoints.sync.syncHistory, async () => ({ syncHistory: (await listRuns(ctx.db, 200)).map(toSyncHistoryRecord) })),
    implement(endpoints.sync.changeHistory, ({ query }) => history.list(query)),
  ];
}
