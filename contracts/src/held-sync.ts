import { z } from './zod.js';
import { syncHistoryRecord } from './admin.js';

/**
 * Deciding on a held sync (admin only): "Apply anyway" applies exactly the stored snapshot as a new run;
 * "Discard" drops it. Both answer 404 for an unknown run and 409 when the run is not (or no longer) waiting.
 */

/** POST /api/admin/sync-history/{id}/apply and POST /api/admin/sync-history/{id}/discard. */
export const heldSyncParams = z.object({
  id: z.coerce.number({ error: 'id must be a sync history id' }).int('id must be a sync history id').positive('id must be a sync history id'),
});
export type HeldSyncParams = z.infer<typeof heldSyncParams>;

/** POST …/apply: the new run that applied the snapshot (`sync`) and the held run, now `applied` (`held`). */
export const applyHeldSyncResponse = z.object({ message: z.string(), sync: syncHistoryRecord, held: syncHistoryRecord });
export type ApplyHeldSyncResponse = z.infer<typeof applyHeldSyncResponse>;

/** POST …/discard: the held run, now `discarded`. */
export const discardHeldSyncResponse = z.object({ message: z.string(), held: syncHistoryRecord });
export type DiscardHeldSyncResponse = z.infer<typeof discardHeldSyncResponse>;
