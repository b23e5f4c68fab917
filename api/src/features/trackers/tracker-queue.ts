import crypto from 'node:crypto';
import type { DbOrTx } from '../../db/client.js';
import { InputError } from '../../lib/errors.js';
import { deriveSealKey } from '../../lib/sealed-box.js';
import { createTrackersRepo, type TrackerLinkRow } from './trackers.repo.js';
import { refusalToCarry } from './tracker-tenants.repo.js';

export const TRACKER_DELIVERY = {
  batchSize: 20,
  /** Attempts before a call is given up. */
  maxAttempts: 8,
  /** At most 6 hours between retries (the first after TRACKER_RETRY_BASE_MS, doubling). */
  maxBackoffMs: 6 * 60 * 60 * 1000,
  /** A tracker's Retry-After is honoured up to this. */
  maxRetryAfterMs: 60 * 60 * 1000,
  /** A call left 'sending' this long (the process died mid-call) is claimed again. */
  leaseMs: 5 * 60 * 1000,
  timeoutMs: 15_000,
  /** Tasks read per tracker per pull. */
  pullBatch: 200,
  /** Log entries and finished calls are kept this long. */
  retentionMs: 30 * 24 * 60 * 60 * 1000,
};

/**
 * Pushes a record to a tracker inside the caller's transaction (refused, naming `trackerId`, when the tracker may
 * not carry the record's private tenant: refusalToCarry): the record's one link (made on the first push, with
 * its idempotency key), and a create (no task yet, or `recreate` after it was deleted in the tracker) or an update
 * queued; a push while one is waiting joins it. A task deleted in the tracker is left alone unless `recreate`.
 * Returns the link and the queued call (null when nothing was queued).
 */
export async function queueTaskPush(
  tx: DbOrTx,
  trackerId: number,
  recordId: number,
  recreate: boolean,
  now: Date,
): Promise<{ link: TrackerLinkRow; outboxId: number | null }> {
  const repo = createTrackersRepo(tx);
  const tracker = await repo.byId(trackerId);
  if (!tracker) throw new InputError(`No tracker has id ${trackerId}`, [{ path: 'trackerId', message: 'not a tracker' }]);
  const refusal = await refusalToCarry(tx, tracker, recordId);
  if (refusal) throw new InputError(refusal, [{ path: 'trackerId', message: refusal }]);
  let link = await repo.lockedLink(trackerId, recordId);
  if (!link) {
    await repo.insertLink({
      trackerId,
      recordId,
      idempotencyKey: `${trackerId}-${recordId}-${crypto.randomBytes(6).toString('hex')}`,
      createdAt: now,
      updatedAt: now,
    });
    link = await repo.lockedLink(trackerId, recordId);
    if (!link) throw new Error('tracker link vanished');
  }
  if (link.status === 'deleted' && !recreate) return { link, outboxId: null };
  if (link.status === 'failed') await repo.updateLink(link.id, { status: 'queued', lastError: null, updatedAt: now });
  const action = link.externalId && link.status !== 'deleted' ? 'update' : 'create';
  const outboxId = await repo.enqueue({ trackerId, linkId: link.id, action, now });
  return { link: (await repo.link(link.id)) ?? link, outboxId };
}

/**
 * Records changed here (owner, due date, priority, state): their tasks are brought up to date, an update queued per
 * task in the caller's transaction (joining one already waiting). Returns how many were queued.
 */
export async function queueLinkedUpdates(tx: DbOrTx, recordIds: readonly number[], now: Date): Promise<number> {
  const repo = createTrackersRepo(tx);
  const links = await repo.madeLinksOfRecords(recordIds);
  for (const link of links) await repo.enqueue({ trackerId: link.trackerId, linkId: link.id, action: 'update', now });
  return links.length;
}

/** Tracker secrets are sealed with a key of their own, derived from the installation secret. */
export const trackerSecretKey = (installationSecret: string) => deriveSealKey(installationSecret, 'radar-integration-secrets-v1'); // the label from before the rename: it derives the key of every stored secret
