import type { TrackerPort } from '../triage/tracker-port.js';
import { createTrackersRepo } from './trackers.repo.js';
import { queueLinkedUpdates, queueTaskPush } from './tracker.service.js';
import { refusalToCarry } from './tracker-tenants.repo.js';

/** The trackers as triage sees them (features/triage/tracker-port.ts). */
export const trackerPort: TrackerPort = {
  async nameOf(db, trackerId) {
    return (await createTrackersRepo(db).byId(trackerId))?.name ?? null;
  },
  async refusal(tx, trackerId, recordId) {
    const row = await createTrackersRepo(tx).byId(trackerId);
    return row ? refusalToCarry(tx, row, recordId) : null;
  },
  async queuePush(tx, trackerId, recordId, now) {
    await queueTaskPush(tx, trackerId, recordId, false, now);
  },
  queueUpdates: queueLinkedUpdates,
};
