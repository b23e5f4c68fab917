import { and, desc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { FeedFormat, HeldStatus } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { heldSnapshots, type HeldSnapshotRow } from '../../db/schema/index.js';
import type { FeedValidators } from '../../sources/roadmap-feed.js';
import type { SourceName } from '../../sources/types.js';
import type { GuardStats } from './snapshot-guard.js';

/** Held snapshots (snapshot guard): stored with the held run, decided by an admin, superseded by newer snapshots. */

export interface NewHeld {
  syncId: number;
  source: SourceName;
  reason: string;
  format: FeedFormat;
  payload: string;
  snapshotHash: string;
  stats: GuardStats;
  validators: FeedValidators | null;
  /** The tenant whose Message Center snapshot it is (null: the roadmap, or an unscoped Message Center run). */
  tenantId?: number | null;
}

/** Held snapshots are kept, superseded and decided per source and tenant. */
const ofTenant = (tenantId: number | null): SQL => (tenantId !== null ? eq(heldSnapshots.tenantId, tenantId) : isNull(heldSnapshots.tenantId));

export async function insertHeld(db: DbOrTx, held: NewHeld, now: Date): Promise<void> {
  const v = held.validators;
  await db.insert(heldSnapshots).values({
    syncId: held.syncId,
    source: held.source,
    reason: held.reason,
    format: held.format,
    payload: held.payload,
    snapshotHash: held.snapshotHash,
    itemCount: held.stats.itemCount,
    activeBefore: held.stats.activeBefore,
    wouldRemove: held.stats.wouldRemove,
    feedUrl: v?.url ?? null,
    etag: v?.etag ?? null,
    lastModified: v?.lastModified ?? null,
    bodyHash: v?.bodyHash ?? null,
    tenantId: held.tenantId ?? null,
    createdAt: now,
  });
}

/** The source's snapshot waiting for an admin, if any (at most one: holding a new one supersedes the older). */
export async function pendingHeld(db: DbOrTx, source: SourceName, tenantId: number | null = null): Promise<HeldSnapshotRow | null> {
  const [row] = await db
    .select()
    .from(heldSnapshots)
    .where(and(eq(heldSnapshots.source, source), ofTenant(tenantId), eq(heldSnapshots.status, 'pending')))
    .orderBy(desc(heldSnapshots.syncId))
    .limit(1);
  return row ?? null;
}

export async function heldById(db: DbOrTx, syncId: number): Promise<HeldSnapshotRow | null> {
  const [row] = await db.select().from(heldSnapshots).where(eq(heldSnapshots.syncId, syncId));
  return row ?? null;
}

/**
 * A newer snapshot of the source was applied (or held, or found unchanged): older held ones can no longer be applied
 * safely, since they would undo it. Their payloads are dropped.
 */
export async function supersedePending(db: DbOrTx, source: SourceName, exceptSyncId: number | null, now: Date, tenantId: number | null = null): Promise<void> {
  await db
    .update(heldSnapshots)
    .set({ status: 'superseded', decidedAt: now, payload: null })
    .where(
      and(
        eq(heldSnapshots.source, source),
        ofTenant(tenantId),
        eq(heldSnapshots.status, 'pending'),
        ...(exceptSyncId !== null ? [ne(heldSnapshots.syncId, exceptSyncId)] : []),
      ),
    );
}

/** pending → applied/discarded, only if still pending; false when another decision or a newer snapshot came first. */
export async function decideHeld(
  db: DbOrTx,
  syncId: number,
  decision: { status: Extract<HeldStatus, 'applied' | 'discarded'>; by: number | null; at: Date; appliedSyncId?: number },
): Promise<boolean> {
  const rows = await db
    .update(heldSnapshots)
    .set({ status: decision.status, decidedBy: decision.by, decidedAt: decision.at, appliedSyncId: decision.appliedSyncId ?? null, payload: null })
    .where(and(eq(heldSnapshots.syncId, syncId), eq(heldSnapshots.status, 'pending')))
    .returning({ id: heldSnapshots.syncId });
  return rows.length === 1;
}
