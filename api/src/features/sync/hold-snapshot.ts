import type { Db } from '../../db/client.js';
import type { FetchedSnapshot } from './fetched.js';
import { insertHeld, pendingHeld, supersedePending } from './held-snapshots.repo.js';
import { SYNC_SOURCE_LABELS, type SourceAdapter } from './records.js';
import type { SnapshotHeldError } from './snapshot-guard.js';
import { finishRun, toSyncHistoryRecord } from './sync-history.repo.js';
import type { SyncResult, SyncServiceDeps, SyncTenant } from './sync-types.js';

/**
 * A snapshot the guard held: kept for an admin to apply or dismiss, the run finished 'held', and the admins alerted
 * in the same transaction. The same snapshot held again while the first still waits only finishes its run (no second
 * copy, no second alert); a different one supersedes the pending one.
 */
export async function holdSnapshot<R>(
  deps: Pick<SyncServiceDeps, 'clock' | 'log' | 'heldAlerts'>,
  db: Db,
  adapter: SourceAdapter<R>,
  syncId: number,
  fetched: FetchedSnapshot<R>,
  held: SnapshotHeldError,
  warning: string | null,
  tenant: SyncTenant | null,
): Promise<SyncResult> {
  const source = adapter.source;
  const tenantId = tenant?.id ?? null;
  const now = deps.clock.now();
  const { row, alerted } = await db.transaction(async (tx) => {
    const pending = await pendingHeld(tx, source, tenantId);
    const base = {
      status: 'held' as const,
      finishedAt: deps.clock.now(),
      counts: { itemsProcessed: held.stats.itemCount },
      totalItems: held.stats.activeBefore,
      feedFormat: fetched.format,
      warning,
      drift: fetched.drift ?? null,
    };
    if (pending && pending.snapshotHash === held.hash) {
      const note = `${held.reason} Same snapshot as held sync #${pending.syncId}, which is still waiting for an admin.`;
      return { row: await finishRun(tx, syncId, { ...base, note }), alerted: false };
    }
    await supersedePending(tx, source, null, now, tenantId);
    await insertHeld(
      tx,
      {
        syncId,
        source,
        tenantId,
        reason: held.reason,
        format: fetched.format,
        payload: fetched.payload(),
        snapshotHash: held.hash,
        stats: held.stats,
        validators: fetched.validators,
      },
      now,
    );
    await deps.heldAlerts?.write(tx, { syncId, source, reason: tenant ? `${tenant.name}: ${held.reason}` : held.reason, ...held.stats });
    return { row: await finishRun(tx, syncId, { ...base, note: held.reason }), alerted: true };
  });
  if (alerted) deps.heldAlerts?.afterCommit();
  deps.log.warn({ sync: syncId, source, tenant: tenant?.name, ...held.stats }, `${SYNC_SOURCE_LABELS[source]} snapshot held for an admin: ${held.reason}`);
  return { run: toSyncHistoryRecord(row), changes: null };
}
