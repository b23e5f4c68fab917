import { and, eq, like, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { alertDeliveries, alertDeliveryAttempts, appState, syncHistory } from '../../db/schema/index.js';
import { purgeFinished, purgeLog } from '../../outbox/index.js';

/**
 * Which syncs have had their instant alerts: a marker per sync in app_state (`alerted-sync:<id>`), written in the
 * same transaction as the deliveries, so a sync is alerted once whoever runs it (the sync's hook or the sweep).
 */
const MARKER_PREFIX = 'alerted-sync:';
const markerOf = (syncId: number) => MARKER_PREFIX + syncId;

export async function isSyncAlerted(db: DbOrTx, syncId: number): Promise<boolean> {
  return (
    (
      await db
        .select({ key: appState.key })
        .from(appState)
        .where(eq(appState.key, markerOf(syncId)))
    ).length > 0
  );
}

/** When the sync started, or null for an unknown sync. */
export async function syncStartedAt(db: DbOrTx, syncId: number): Promise<Date | null> {
  const [sync] = await db.select({ startedAt: syncHistory.startedAt }).from(syncHistory).where(eq(syncHistory.id, syncId));
  return sync?.startedAt ?? null;
}

/** Writes the sync's marker inside the alert's transaction; false when another run wrote it first. */
export async function claimSyncAlert(tx: DbOrTx, syncId: number, channels: number, now: Date): Promise<boolean> {
  const claimed = await tx
    .insert(appState)
    .values({ key: markerOf(syncId), value: { channels }, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return claimed.length > 0;
}

/** Successful syncs since `since` that changed items and have no marker, oldest first. */
export async function unalertedSyncs(db: DbOrTx, since: Date): Promise<number[]> {
  const rows = await db
    .select({ id: syncHistory.id })
    .from(syncHistory)
    .where(
      and(
        eq(syncHistory.status, 'success'),
        sql`${syncHistory.startedAt} >= ${since}`,
        sql`${syncHistory.newItems} + ${syncHistory.changedItems} + ${syncHistory.removedItems} + ${syncHistory.restoredItems} > 0`,
        sql`NOT EXISTS (SELECT 1 FROM app_state s WHERE s.key = ${MARKER_PREFIX} || ${syncHistory.id}::text)`,
      ),
    )
    .orderBy(syncHistory.id);
  return rows.map((r) => r.id);
}

/** Deletes markers, delivery attempts and finished deliveries older than `before`. */
export async function pruneAlertRecords(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(appState).where(and(like(appState.key, `${MARKER_PREFIX}%`), lt(appState.updatedAt, before)));
  await purgeLog(db, alertDeliveryAttempts, before);
  await purgeFinished(db, alertDeliveries, before);
}
