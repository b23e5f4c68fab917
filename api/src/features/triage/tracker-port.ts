import type { DbOrTx } from '../../db/client.js';

/**
 * What triage asks of the trackers, without knowing them: the trackers feature implements it
 * (features/trackers/tracker-port.ts) and the composition root (services.ts) hands it in, so triage, which the
 * trackers build on, never imports them. Every call runs in the caller's transaction.
 */
export interface TrackerPort {
  /** The tracker's name, or null when no tracker has the id. */
  nameOf(db: DbOrTx, trackerId: number): Promise<string | null>;
  /** Why the tracker may not carry the record (a private tenant it is not given), or null when it may. */
  refusal(tx: DbOrTx, trackerId: number, recordId: number): Promise<string | null>;
  /** Queues the record's task in the tracker (made, or updated when it exists). */
  queuePush(tx: DbOrTx, trackerId: number, recordId: number, now: Date): Promise<void>;
  /** Queues an update of every task the records already have; returns how many were queued. */
  queueUpdates(tx: DbOrTx, recordIds: readonly number[], now: Date): Promise<number>;
}
