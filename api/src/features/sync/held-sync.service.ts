import type { FeedFormat, SyncHistoryRecord } from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { HeldSnapshotRow } from '../../db/schema/index.js';
import type { MessageRecord, RoadmapRecord, SourceName } from '../../sources/types.js';
import type { FetchedSnapshot } from './fetched.js';
import { decideHeld, heldById } from './held-snapshots.repo.js';
import { getRun, toSyncHistoryRecord } from './sync-history.repo.js';
import type { SyncService } from './sync.service.js';
import { SYNC_SOURCE_LABELS } from './records.js';

/** Parses a held payload again, exactly as the run that held it read it (wiring.ts: heldPayloadParser). */
export type HeldParser = (
  source: SourceName,
  format: FeedFormat,
  payload: string,
) => Promise<Pick<FetchedSnapshot<RoadmapRecord | MessageRecord>, 'records' | 'reconcile'>>;

function refuseUnlessPending(held: HeldSnapshotRow): void {
  if (held.status === 'pending') return;
  if (held.status === 'applied')
    throw new ConflictError(`Sync #${held.syncId} was already applied${held.appliedSyncId ? ` (by sync #${held.appliedSyncId})` : ''}`);
  if (held.status === 'discarded') throw new ConflictError(`Sync #${held.syncId} was discarded`);
  throw new ConflictError(`A newer ${SYNC_SOURCE_LABELS[held.source]} snapshot was applied or held after sync #${held.syncId}; it can no longer be applied`);
}

/** "Apply anyway" and "Discard" of a held sync (admin only; the router enforces the role). */
export function createHeldSyncService(deps: { db: Db; clock: Clock; sync: SyncService; parseHeld: HeldParser }) {
  /** The held snapshot of a run, refused (404/409) unless it still waits for a decision. */
  async function loadHeld(syncId: number, db: DbOrTx = deps.db): Promise<HeldSnapshotRow> {
    const held = await heldById(db, syncId);
    if (!held) throw new NotFoundError(`Sync #${syncId} was not held: there is nothing to apply or discard`);
    refuseUnlessPending(held);
    return held;
  }
  async function recordOf(syncId: number): Promise<SyncHistoryRecord> {
    const run = await getRun(deps.db, syncId);
    if (!run) throw new NotFoundError(`Sync #${syncId} no longer exists`);
    return toSyncHistoryRecord(run);
  }

  return {
    /** Applies exactly the stored snapshot as a new admin run, without the guard; the held run becomes `applied`. */
    async apply(syncId: number, userId: number): Promise<{ message: string; sync: SyncHistoryRecord; held: SyncHistoryRecord }> {
      const held = await loadHeld(syncId);
      const parsed = await deps.parseHeld(held.source, held.format as FeedFormat, held.payload ?? '');
      const snapshot: FetchedSnapshot<RoadmapRecord | MessageRecord> = {
        kind: 'snapshot',
        format: held.format as FeedFormat,
        records: parsed.records,
        payload: () => held.payload ?? '',
        reconcile: parsed.reconcile,
        validators: held.feedUrl ? { url: held.feedUrl, etag: held.etag, lastModified: held.lastModified, bodyHash: held.bodyHash } : null,
        note: `Applied the snapshot held by sync #${syncId} (Apply anyway).`,
      };
      // A tenant's held snapshot is applied as that tenant's run (its name as the held run recorded it).
      const heldRun = held.tenantId !== null ? await getRun(deps.db, syncId) : null;
      const tenant = held.tenantId !== null ? { id: held.tenantId, name: heldRun?.tenantName ?? `Tenant ${held.tenantId}` } : null;
      const { run } = await deps.sync.applyForced(held.source, snapshot, {
        tenant,
        trigger: 'admin',
        triggeredBy: userId,
        afterApply: async (tx, appliedSyncId) => {
          // Decided inside the apply's transaction: two admins applying at once cannot both succeed.
          const decided = await decideHeld(tx, syncId, { status: 'applied', by: userId, at: deps.clock.now(), appliedSyncId });
          if (!decided) await loadHeld(syncId, tx);
        },
      });
      if (run.status !== 'success') throw new ConflictError(`The held snapshot could not be applied: ${run.errorMessage ?? run.status}`);
      const message = `Applied the held ${SYNC_SOURCE_LABELS[held.source]} snapshot: ${run.newItems} new, ${run.changedItems} changed, ${run.removedItems} removed, ${run.restoredItems} restored`;
      return { message, sync: run, held: await recordOf(syncId) };
    },

    async discard(syncId: number, userId: number): Promise<{ message: string; held: SyncHistoryRecord }> {
      await loadHeld(syncId);
      if (!(await decideHeld(deps.db, syncId, { status: 'discarded', by: userId, at: deps.clock.now() }))) await loadHeld(syncId);
      return { message: `Discarded the snapshot held by sync #${syncId}`, held: await recordOf(syncId) };
    },
  };
}

export type HeldSyncService = ReturnType<typeof createHeldSyncService>;
