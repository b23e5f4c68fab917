import type { TrackerPort } from '../triage/tracker-port.js';
import { createIntegrationsRepo } from './integrations.repo.js';
import { queueLinkedUpdates, queueTaskPush } from './tracker.service.js';
import { refusalToCarry } from './tracker-tenants.repo.js';

/** The trackers as triage sees them (features/triage/tracker-port.ts). */
export const trackerPort: TrackerPort = {
  async nameOf(db, trackerId) {
    return (await createIntegrationsRepo(db).byId(trackerId))?.name ?? null;
  },
  async refusal(tx, trackerId, recordId) {
    const row = await createIntegrationsRepo(tx).byId(trackerId);
    return row ? refusalToCarry(tx, row, recordId) : null;
  },
  async queuePush(tx, trackerId, recordId, now) {
    await queueTaskPush(tx, trackerId, recordId, false, now);
  },
  queueUpdates: queueLinkedUpdates,
};
