import type { Logger } from '../../logger.js';
import type { SnapshotReactor } from '../sync/snapshot-reactor.js';
import type { TrackerPort } from './tracker-port.js';
import { applyTriageRules } from './triage-rules.js';
import { createTriageStartRepo } from './triage-start.repo.js';
import { createTriageRepo } from './triage.repo.js';

/**
 * Triage's part of every applied snapshot, in its transaction: every new item, and every post a tenant newly
 * received, gets its triage record; changed items' defaults follow them; then the admins' rules decide what they can
 * about what just arrived.
 */
export function triageSnapshotReactor(deps: { trackers: TrackerPort; log?: Logger }): SnapshotReactor {
  return async (tx, applied) => {
    const triage = createTriageRepo(tx);
    const opened = await triage.openRecords({ itemIds: [...new Set([...applied.newItemIds, ...applied.listedItemIds])] }, applied.now);
    await triage.refreshDefaults({ itemIds: applied.updatedItemIds });
    const reopened = await createTriageStartRepo(tx).reopenChanged(applied.updatedItemIds, applied.now);
    const roadmap = applied.source === 'roadmap' ? [...new Set([...applied.newItemIds, ...applied.updatedItemIds])] : [];
    await applyTriageRules(tx, [...opened, ...reopened], applied.now, deps, roadmap);
  };
}
