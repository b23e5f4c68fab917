import { endpoints, type SyncHistoryRecord } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import { implement, Reply, type EndpointImplementation, implementCallerRead } from '../../http/endpoints.js';
import { SyncAlreadyRunningError, type SyncService } from './sync.service.js';
import type { SyncResult, TenantsSyncResult } from './sync-types.js';
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

  /**
   * Every enabled tenant's run: 200 when at least one tenant's run did its job (the others' failures are in `runs`
   * and Sync History), else the first failure's status, as one tenant's trigger would answer.
   */
  function answerTenants(
    { runs }: TenantsSyncResult,
    label = 'Message Center',
  ): { message: string; sync: SyncHistoryRecord; runs: SyncHistoryRecord[] } | Reply {
    const recorded = runs.flatMap((r) => (r.result ? [r.result.run] : []));
    const busy = runs.filter((r) => r.error instanceof SyncAlreadyRunningError).map((r) => r.tenant.name);
    const first = recorded[0];
    if (!first) throw runs[0]?.error ?? new Error('no tenant was synced');
    const ok = recorded.filter((r) => r.status === 'success' || r.status === 'unchanged' || r.status === 'held');
    if (ok.length === 0) {
      const single = answer(label, { run: first, changes: null });
      if (single instanceof Reply) return single;
    }
    const sum = (key: 'newItems' | 'changedItems' | 'removedItems' | 'restoredItems') => recorded.reduce((n, r) => n + r[key], 0);
    const failed = recorded.length - ok.length;
    const message =
      `${label} sync of ${recorded.length} ${recorded.length === 1 ? 'tenant' : 'tenants'} finished: ${sum('newItems')} new, ${sum('changedItems')} changed, ${sum('removedItems')} removed, ${sum('restoredItems')} restored` +
      (failed ? `; ${failed} failed (see Sync History)` : '') +
      (busy.length ? `; already running: ${busy.join(', ')}` : '');
    return { message, sync: first, runs: recorded };
  }

  return [
    implement(endpoints.sync.syncRoadmap, async ({ auth }) => answer('Roadmap', await sync.syncRoadmap({ trigger: 'admin', triggeredBy: auth.user.id }))),
    implement(endpoints.sync.syncMessageCenter, async ({ auth }) => {
      const all = await sync.syncMessageCenter({ trigger: 'admin', triggeredBy: auth.user.id });
      if (all.unscoped) return answer('Message Center', all.unscoped);
      return answerTenants(all);
    }),
    implement(endpoints.sync.syncServiceHealth, async ({ auth }) => {
      const all = await sync.syncServiceHealth({ trigger: 'admin', triggeredBy: auth.user.id });
      if (all.runs.length === 0) {
        return Reply.status(503, {
          error: { name: 'NotConfiguredError', message: 'Service Health is read per tenant: add a tenant (or set GRAPH_*) in Admin → Tenants' },
        });
      }
      return answerTenants(all, 'Service Health');
    }),
    implementCallerRead(endpoints.sync.syncHistory, async () => ({ syncHistory: (await listRuns(ctx.db, 200)).map(toSyncHistoryRecord) })),
    implement(endpoints.sync.changeHistory, ({ query }) => history.list(query)),
  ];
}
