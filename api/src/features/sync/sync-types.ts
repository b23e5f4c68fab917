import type pg from 'pg';
import type { SyncHistoryRecord } from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../logger.js';
import type { HealthRecord, MessageRecord, RoadmapRecord, SourceName } from '../../sources/types.js';
import type { Loader } from './fetched.js';
import type { ItemChange } from './plan.js';
import type { GuardPolicy } from './snapshot-guard.js';
import type { SnapshotReactor } from './snapshot-reactor.js';
import type { SyncTrigger } from './sync-history.repo.js';

// What the sync service is built from, what a run is asked and what it answers: shared by the service, the held
// snapshot it records, its wiring and the endpoints that start runs.

/** What a finished sync hands on (to subscriber notifications). `itemId` is the items.id of the row. */
export interface SyncChangeSet {
  source: SourceName;
  syncId: number;
  changes: (ItemChange & { itemId: number })[];
}

/** A snapshot the guard held, for the admin alert written in the same transaction. */
export interface HeldAlert {
  syncId: number;
  source: SourceName;
  reason: string;
  itemCount: number;
  activeBefore: number;
  wouldRemove: number;
}

/** A tenant whose Message Center a run reads. */
export interface SyncTenant {
  id: number;
  name: string;
}

export interface SyncServiceDeps {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  log: Logger;
  /** Where the live snapshots come from (production clients, or the replay server in tests). */
  fetchRoadmap: Loader<RoadmapRecord>;
  fetchMessages: Loader<MessageRecord>;
  /** SYNC_MAX_REMOVED_PERCENT and SYNC_MIN_REMOVED_ITEMS (defaults 10 and 25). */
  guard?: GuardPolicy;
  /** Called after a committed sync that changed something; failures are logged, never undo the sync. */
  onItemsChanged?: (changes: SyncChangeSet) => Promise<void> | void;
  /** Writes of other features that commit with every applied snapshot (see snapshot-reactor.ts). */
  reactors?: readonly SnapshotReactor[];
  /** Writes the admins' alert for a held snapshot inside the hold's transaction; `afterCommit` sends it on. */
  heldAlerts?: { write(tx: DbOrTx, alert: HeldAlert): Promise<void>; afterCommit(): void };
  /**
   * Work that follows a successful run of a source, still under its lock and stopped like a fetch at shutdown (the
   * attachments of Message Center posts). A failure is logged; the run stays successful.
   */
  afterSync?: (source: SourceName, db: Db, signal: AbortSignal, tenant: SyncTenant | null) => Promise<void>;
  /**
   * The tenants whose Message Center is read, and the loader of each. With none enabled, a Message Center sync reads
   * `fetchMessages` unscoped (an installation without tenants).
   */
  tenants?: {
    enabled(): Promise<SyncTenant[]>;
    loader(tenant: SyncTenant): Promise<Loader<MessageRecord>>;
    /** The tenant's Service Health issues. */
    healthLoader(tenant: SyncTenant): Promise<Loader<HealthRecord>>;
    /** How many tenants one process syncs at once (GRAPH_MAX_CONCURRENT_TENANTS). */
    concurrency: number;
  };
}

export interface RunOptions {
  trigger: SyncTrigger;
  triggeredBy?: number | null;
}

/** What the service itself adds to a run: the demo data set, "Apply anyway" and the tenant. */
export interface InternalRunOptions extends RunOptions {
  demo?: boolean;
  /** Skip the snapshot guard: "Apply anyway" of a held snapshot. */
  force?: boolean;
  /** Writes committed with the snapshot (marking the held snapshot applied). */
  afterApply?: (tx: DbOrTx, syncId: number) => Promise<void>;
  /** The tenant whose Message Center is read; null: the source unscoped. */
  tenant?: SyncTenant | null;
}

export interface SyncResult {
  run: SyncHistoryRecord;
  changes: SyncChangeSet | null;
}

/** A Message Center sync of every enabled tenant: one run each (empty without tenants, see `unscoped`). */
export interface TenantsSyncResult {
  runs: { tenant: SyncTenant; result: SyncResult | null; error: Error | null }[];
  /** The unscoped run, when no tenant is enabled. */
  unscoped: SyncResult | null;
}
