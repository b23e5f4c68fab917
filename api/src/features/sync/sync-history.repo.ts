import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { FeedFormat, SyncHistoryRecord, SyncStatus } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { heldSnapshots, syncHistory, users, type HeldSnapshotRow, type SyncHistoryRow } from '../../db/schema/index.js';
import type { FeedValidators } from '../../sources/roadmap-feed.js';
import { hasDrift, type SchemaDrift } from '../../sources/schema-drift.js';
import type { SourceName } from '../../sources/types.js';
import type { SyncCounts } from './plan.js';

export type SyncTrigger = 'schedule' | 'admin' | 'cli' | 'startup' | 'demo';
export type { SyncStatus };

/**
 * Which runs a question is about: Message Center runs are per tenant (`tenantId`), the roadmap's and the unscoped
 * Message Center runs (records from a file, the demo set, an installation without tenants) have none.
 */
export type RunTenant = { id: number; name: string } | null;
const ofTenant = (tenant: RunTenant): SQL => (tenant ? eq(syncHistory.tenantId, tenant.id) : isNull(syncHistory.tenantId));

/** Statuses after which the source's stored items match the feed response the run recorded. */
const APPLIED: SyncStatus[] = ['success', 'unchanged'];

export async function startRun(
  db: DbOrTx,
  source: SourceName,
  trigger: SyncTrigger,
  startedAt: Date,
  triggeredBy: number | null,
  tenant: RunTenant = null,
): Promise<SyncHistoryRow> {
  const [row] = await db
    .insert(syncHistory)
    .values({ source, trigger, triggeredBy, startedAt, status: 'running', tenantId: tenant?.id ?? null, tenantName: tenant?.name ?? null })
    .returning();
  return returned(row);
}

export interface RunResult {
  status: SyncStatus;
  finishedAt: Date;
  counts?: Partial<SyncCounts>;
  totalItems?: number;
  errorMessage?: string | null;
  feedFormat?: FeedFormat | null;
  note?: string | null;
  validators?: FeedValidators | null;
  warning?: string | null;
  drift?: SchemaDrift | null;
}

export async function finishRun(db: DbOrTx, id: number, result: RunResult): Promise<SyncHistoryRow> {
  const v = result.validators;
  const [row] = await db
    .update(syncHistory)
    .set({
      status: result.status,
      finishedAt: result.finishedAt,
      errorMessage: result.errorMessage ?? null,
      ...(result.counts ?? {}),
      ...(result.totalItems !== undefined ? { totalItems: result.totalItems } : {}),
      ...(result.feedFormat !== undefined ? { feedFormat: result.feedFormat } : {}),
      ...(result.note !== undefined ? { note: result.note } : {}),
      ...(result.warning !== undefined ? { warning: result.warning } : {}),
      ...(result.drift !== undefined ? { drift: hasDrift(result.drift) ? result.drift : null } : {}),
      ...(v ? { feedUrl: v.url, etag: v.etag, lastModified: v.lastModified, bodyHash: v.bodyHash } : {}),
    })
    .where(eq(syncHistory.id, id))
    .returning();
  return returned(row);
}

export const INTERRUPTED_MESSAGE = 'interrupted: the process stopped before the sync finished; nothing of it was applied';

/**
 * Runs left 'running' by a process that died (kill -9, power loss). Called while holding the source's advisory lock
 * (at start-up and before each run), so no live sync of that source can own them. Their transaction never committed,
 * so the items are as the previous run left them.
 */
export async function markInterruptedRuns(db: DbOrTx, source: SourceName, now: Date, tenant: RunTenant = null): Promise<number> {
  const rows = await db
    .update(syncHistory)
    .set({ status: 'interrupted', finishedAt: now, errorMessage: INTERRUPTED_MESSAGE })
    .where(and(eq(syncHistory.source, source), ofTenant(tenant), eq(syncHistory.status, 'running')))
    .returning({ id: syncHistory.id });
  return rows.length;
}

/** The feed response the source's items currently reflect (for conditional requests), if it came from a URL. */
export async function lastAppliedFeed(db: DbOrTx, source: SourceName, tenant: RunTenant = null): Promise<FeedValidators | null> {
  const [row] = await db
    .select({ url: syncHistory.feedUrl, etag: syncHistory.etag, lastModified: syncHistory.lastModified, bodyHash: syncHistory.bodyHash })
    .from(syncHistory)
    .where(and(eq(syncHistory.source, source), ofTenant(tenant), inArray(syncHistory.status, APPLIED)))
    .orderBy(desc(syncHistory.id))
    .limit(1);
  return row?.url ? { url: row.url, etag: row.etag, lastModified: row.lastModified, bodyHash: row.bodyHash } : null;
}

/** Formats a source reads live (not a file or the demo set). */
const LIVE_FORMATS: FeedFormat[] = ['v2', 'json', 'rss', 'graph'];

/** The format the source's last run that read a live feed (applied, unchanged or held) read, or null. */
export async function lastLiveFormat(db: DbOrTx, source: SourceName, tenant: RunTenant = null): Promise<FeedFormat | null> {
  const [row] = await db
    .select({ format: syncHistory.feedFormat })
    .from(syncHistory)
    .where(
      and(eq(syncHistory.source, source), ofTenant(tenant), inArray(syncHistory.status, [...APPLIED, 'held']), inArray(syncHistory.feedFormat, LIVE_FORMATS)),
    )
    .orderBy(desc(syncHistory.id))
    .limit(1);
  return (row?.format as FeedFormat | undefined) ?? null;
}

type RunWithHeld = SyncHistoryRow & { held: (HeldSnapshotRow & { decidedByEmail: string | null }) | null };

export async function listRuns(db: DbOrTx, limit = 100): Promise<RunWithHeld[]> {
  const rows = await db
    .select({ run: syncHistory, held: heldSnapshots, decidedByEmail: users.email })
    .from(syncHistory)
    .leftJoin(heldSnapshots, eq(heldSnapshots.syncId, syncHistory.id))
    .leftJoin(users, eq(users.id, heldSnapshots.decidedBy))
    .orderBy(desc(syncHistory.startedAt), desc(syncHistory.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.run, held: r.held ? { ...r.held, decidedByEmail: r.decidedByEmail } : null }));
}

export async function getRun(db: DbOrTx, id: number): Promise<RunWithHeld | null> {
  const [r] = await db
    .select({ run: syncHistory, held: heldSnapshots, decidedByEmail: users.email })
    .from(syncHistory)
    .leftJoin(heldSnapshots, eq(heldSnapshots.syncId, syncHistory.id))
    .leftJoin(users, eq(users.id, heldSnapshots.decidedBy))
    .where(eq(syncHistory.id, id));
  return r ? { ...r.run, held: r.held ? { ...r.held, decidedByEmail: r.decidedByEmail } : null } : null;
}

/** The source's last run that left its items matching the feed (a successful apply or an unchanged check). */
export async function lastSuccessfulRun(db: DbOrTx, source: SourceName): Promise<SyncHistoryRow | null> {
  const [row] = await db
    .select()
    .from(syncHistory)
    .where(and(eq(syncHistory.source, source), inArray(syncHistory.status, APPLIED)))
    .orderBy(desc(syncHistory.startedAt))
    .limit(1);
  return row ?? null;
}

export async function countRuns(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(syncHistory);
  return row?.n ?? 0;
}

/** Row → the admin contract (syncDate, syncSource, success, itemsProcessed/totalItems, newItems, …). */
export function toSyncHistoryRecord(row: SyncHistoryRow & { held?: RunWithHeld['held'] }): SyncHistoryRecord {
  const held = row.held ?? null;
  return {
    id: row.id,
    syncDate: row.startedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
    syncSource: row.source,
    trigger: row.trigger,
    success: row.status === 'success' || row.status === 'unchanged',
    status: row.status,
    itemsProcessed: row.itemsProcessed,
    totalItems: row.totalItems,
    newItems: row.newItems,
    changedItems: row.changedItems,
    removedItems: row.removedItems,
    restoredItems: row.restoredItems,
    expiredInFeed: row.expiredInFeed,
    changedExpired: row.changedExpired,
    errorMessage: row.errorMessage,
    feedFormat: (row.feedFormat as FeedFormat | null) ?? null,
    note: row.note,
    warning: row.warning,
    drift: row.drift ?? null,
    tenant: row.tenantId !== null && row.tenantName !== null ? { id: row.tenantId, name: row.tenantName } : null,
    held: held
      ? {
          status: held.status as NonNullable<SyncHistoryRecord['held']>['status'],
          reason: held.reason,
          itemCount: held.itemCount,
          activeBefore: held.activeBefore,
          wouldRemove: held.wouldRemove,
          decidedAt: held.decidedAt ? held.decidedAt.toISOString() : null,
          decidedBy: held.decidedByEmail,
          appliedSyncId: held.appliedSyncId,
        }
      : null,
  };
}
