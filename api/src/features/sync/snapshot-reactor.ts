import type { DbOrTx } from '../../db/client.js';
import type { ItemSource } from './records.js';

/** What one applied snapshot wrote, as the features that react to it inside its transaction see it. */
export interface AppliedSnapshot {
  syncId: number;
  source: ItemSource;
  now: Date;
  /** The tenant whose Message Center the snapshot is; null for the roadmap, a file or an unscoped run. */
  tenantId: number | null;
  /** Rows the snapshot inserted. */
  newItemIds: number[];
  /** Every row the tenant's snapshot lists (empty without a tenant): a post newly received by the tenant is among them. */
  listedItemIds: number[];
  /** Rows whose stored fields the snapshot changed. */
  updatedItemIds: number[];
}

/**
 * A feature's writes that must commit with a snapshot (triage records opened with the posts that arrived). The sync
 * runs the reactors it is given, in order, and knows nothing of the features behind them; what may lag behind a
 * commit uses the sync's `onItemsChanged` hook and the outboxes instead.
 */
export type SnapshotReactor = (tx: DbOrTx, applied: AppliedSnapshot) => Promise<void>;
