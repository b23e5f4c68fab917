import { z } from './zod.js';

/**
 * How a sync run ended and what it read. `held`: the snapshot guard kept a snapshot that was empty or would remove
 * more than SYNC_MAX_REMOVED_PERCENT of the source's live items, for an admin to apply or discard (held-sync.ts).
 * `unchanged`: the feed answered 304 or sent the bytes last applied. `interrupted`: the process stopped mid-run.
 */

export const SYNC_STATUSES = ['running', 'success', 'failed', 'not_configured', 'held', 'unchanged', 'interrupted'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/**
 * What a run read. The roadmap is a chain: v2 (the v2 API), then json (the v1 JSON feed), then rss (its RSS feed);
 * graph: Message Center; file: `npm run import`; demo: the demo set.
 */
export const FEED_FORMATS = ['v2', 'json', 'rss', 'graph', 'file', 'demo'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** Schema drift of a run's snapshot: item keys it did not expect and expected keys items lacked, with item counts. */
export const schemaDrift = z.object({
  unexpected: z.array(z.object({ field: z.string(), items: z.number().int() })),
  missing: z.array(z.object({ field: z.string(), items: z.number().int() })),
});
export type SchemaDriftInfo = z.infer<typeof schemaDrift>;

export const HELD_STATUSES = ['pending', 'applied', 'discarded', 'superseded'] as const;
export type HeldStatus = (typeof HELD_STATUSES)[number];

export const heldSnapshotInfo = z.object({
  /** pending until an admin decides; superseded when a newer snapshot of the source was applied or held. */
  status: z.enum(HELD_STATUSES),
  reason: z.string(),
  /** Records in the held snapshot, live items of the source when it was held, and how many it would remove. */
  itemCount: z.number().int(),
  activeBefore: z.number().int(),
  wouldRemove: z.number().int(),
  decidedAt: z.string().nullable(),
  /** E-mail of the admin who applied or discarded it. */
  decidedBy: z.string().nullable(),
  /** The sync run that applied it ("Apply anyway"). */
  appliedSyncId: z.number().int().nullable(),
});
export type HeldSnapshotInfo = z.infer<typeof heldSnapshotInfo>;
