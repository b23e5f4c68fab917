import { and, desc, eq, sql } from 'drizzle-orm';
import type { SyncHistoryRecord } from '@radar/contracts';
import type { DbOrTx } from '../db/client.js';
import { syncHistory, type SyncHistoryRow } from '../db/schema.js';
import type { SourceName } from '../sources/types.js';
import type { SyncCounts } from './plan.js';

export type SyncTrigger = 'schedule' | 'admin' | 'cli' | 'startup' | 'demo';
export type SyncStatus = 'running' | 'success' | 'failed' | 'not_configured';

export async function startRun(
  db: DbOrTx,
  source: SourceName,
  trigger: SyncTrigger,
  startedAt: Date,
  triggeredBy: number | null,
): Promise<SyncHistoryRow> {
  const [row] = await db.insert(syncHistory).values({ source, trigger, triggeredBy, startedAt, status: 'running' }).returning();
  return row;
}

export async function finishRun(
  db: DbOrTx,
  id: number,
  result: { status: SyncStatus; finishedAt: Date; counts?: SyncCounts; totalItems?: number; errorMessage?: string | null },
): Promise<SyncHistoryRow> {
  const [row] = await db
    .update(syncHistory)
    .set({
      status: result.status,
      finishedAt: result.finishedAt,
      errorMessage: result.errorMessage ?? null,
      ...(result.counts ?? {}),
      ...(result.totalItems !== undefined ? { totalItems: result.totalItems } : {}),
    })
    .where(eq(syncHistory.id, id))
    .returning();
  return row;
}

/**
 * Runs left 'running' by a process that died. Called while holding the source's advisory lock, so no live sync of
 * that source can own them.
 */
export async function failInterruptedRuns(db: DbOrTx, source: SourceName, now: Date): Promise<number> {
  const rows = await db
    .update(syncHistory)
    .set({ status: 'failed', finishedAt: now, errorMessage: 'interrupted: the process stopped before the sync finished' })
    .where(and(eq(syncHistory.source, source), eq(syncHistory.status, 'running')))
    .returning({ id: syncHistory.id });
  return rows.length;
}

export async function listRuns(db: DbOrTx, limit = 100): Promise<SyncHistoryRow[]> {
  return db.select().from(syncHistory).orderBy(desc(syncHistory.startedAt), desc(syncHistory.id)).limit(limit);
}

export async function lastSuccessfulRun(db: DbOrTx, source: SourceName): Promise<SyncHistoryRow | null> {
  const [row] = await db
    .select()
    .from(syncHistory)
    .where(and(eq(syncHistory.source, source), eq(syncHistory.status, 'success')))
    .orderBy(desc(syncHistory.startedAt))
    .limit(1);
  return row ?? null;
}

export async function countRuns(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(syncHistory);
  return row?.n ?? 0;
}

/** Row → the admin contract (spec 02 §3: syncDate, syncSource, success, itemsProcessed/totalItems, newItems, …). */
export function toSyncHistoryRecord(row: SyncHistoryRow): SyncHistoryRecord {
  return {
    id: row.id,
    syncDate: row.startedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    syncSource: row.source,
    trigger: row.trigger,
    success: row.status === 'success',
    status: row.status,
    itemsProcessed: row.itemsProcessed,
    totalItems: row.totalItems,
    newItems: row.newItems,
    changedItems: row.changedItems,
    removedItems: row.removedItems,
    restoredItems: row.restoredItems,
    errorMessage: row.errorMessage,
  };
}
