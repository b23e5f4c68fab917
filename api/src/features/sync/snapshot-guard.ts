import crypto from 'node:crypto';
import type { Config } from '../../config.js';

/**
 * The snapshot guard: a well-formed snapshot can still be wrong (an upstream outage that answers `[]`, a feed cut
 * short by a proxy, a tenant whose Graph permission was narrowed). Applying it would mark hundreds of items removed
 * and mail every follower, so it is held for an admin instead. Pure, so the rule is tested on its own.
 */

export interface GuardStats {
  /** Records in the snapshot. */
  itemCount: number;
  /** Live (not removed) items of the source before the snapshot. */
  activeBefore: number;
  /** Live items the snapshot would mark removed (missing from it, or expired messages). */
  wouldRemove: number;
}

/**
 * When a snapshot is held: it removes more than `maxRemovedPercent` of the live items (SYNC_MAX_REMOVED_PERCENT)
 * AND at least `minRemovedItems` of them (SYNC_MIN_REMOVED_ITEMS). Both are needed: a small source (a tenant with a
 * dozen posts) losing two is a normal week, not an outage, however large the share.
 */
export interface GuardPolicy {
  maxRemovedPercent: number;
  minRemovedItems: number;
}

/** The guard's limits from the configuration. */
export const guardPolicyOf = (config: Pick<Config, 'SYNC_MAX_REMOVED_PERCENT' | 'SYNC_MIN_REMOVED_ITEMS'>): GuardPolicy => ({
  maxRemovedPercent: config.SYNC_MAX_REMOVED_PERCENT,
  minRemovedItems: config.SYNC_MIN_REMOVED_ITEMS,
});

const pct = (n: number) => `${n.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
const count = (n: number) => n.toLocaleString('en-US');

/**
 * The reason to hold the snapshot, or null to apply it. An empty snapshot is held when the source had live items
 * (at least the floor of them) or none at all (a feed that never had an item is not a feed); below the floor an
 * empty answer is a small source whose last items ended.
 */
export function holdReason(stats: GuardStats, policy: GuardPolicy): string | null {
  if (stats.itemCount === 0) {
    if (stats.activeBefore === 0) return 'The snapshot is empty.';
    if (stats.activeBefore < policy.minRemovedItems) return null;
    return `The snapshot is empty: applying it would mark all ${count(stats.activeBefore)} live items removed.`;
  }
  if (stats.activeBefore === 0 || policy.maxRemovedPercent >= 100) return null;
  if (stats.wouldRemove < policy.minRemovedItems) return null;
  const share = (stats.wouldRemove / stats.activeBefore) * 100;
  if (share <= policy.maxRemovedPercent) return null;
  return `The snapshot would remove ${count(stats.wouldRemove)} of ${count(stats.activeBefore)} live items (${pct(share)}), more than SYNC_MAX_REMOVED_PERCENT (${pct(policy.maxRemovedPercent)}).`;
}

/**
 * Identity of a snapshot's content: its items' ids and content hashes, order-free. Two fetches of the same bad
 * snapshot (Graph restamps FeatureStatusJson on every fetch, so their bytes differ) are held once, not every hour.
 */
export function snapshotHash(entries: Iterable<[externalId: string, contentHash: string]>): string {
  const lines = [...entries].map(([id, hash]) => `${id}:${hash}`).sort();
  return crypto.createHash('sha256').update(lines.join('\n')).digest('base64url');
}

/** Thrown inside the apply transaction (so it rolls back) when the guard holds the snapshot. */
export class SnapshotHeldError extends Error {
  override name = 'SnapshotHeldError';
  constructor(
    readonly reason: string,
    readonly stats: GuardStats,
    readonly hash: string,
  ) {
    super(reason);
  }
}
