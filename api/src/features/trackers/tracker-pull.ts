import { SOURCE_ITEM_NOUNS, type TrackerPullResult } from '@radar/contracts';
import { touchedChanges } from '../alerts/alert-matching.repo.js';
import { summarizeChange } from '../feeds/change-summary.js';
import type { RemoteTask } from './connectors/connector.js';
import { createTrackersRepo } from './trackers.repo.js';
import type { TrackerDelivery, TrackerRuntime } from './tracker-delivery.js';
import { TRACKER_DELIVERY } from './tracker-queue.js';

/**
 * Reading back: each linked task's state, owner and due date brought into its record (the pull), and a sync's item
 * changes queued as comments on the tasks of the items it changed.
 */
export function createTrackerPull(rt: TrackerRuntime, delivery: TrackerDelivery) {
  const { deps, connectorFor } = rt;
  const { db, clock, log } = deps;
  const { classify, record, applyRemote, remoteFields } = delivery;

  async function pull(trackerId: number): Promise<TrackerPullResult> {
    const repo = createTrackersRepo(db);
    const tracker = await repo.byId(trackerId);
    if (!tracker) return { read: 0, changed: 0, missing: 0, message: 'No such tracker' };
    const connector = await connectorFor(tracker);
    if (typeof connector === 'string') {
      await repo.update(tracker.id, { lastPullAt: clock.now(), lastPullError: connector });
      return { read: 0, changed: 0, missing: 0, message: connector };
    }
    let read = 0;
    let changed = 0;
    let missing = 0;
    let error: string | null = null;
    for (const link of await repo.linksToPull(tracker.id, TRACKER_DELIVERY.pullBatch)) {
      if (rt.isStopping()) break;
      const started = performance.now();
      let task: RemoteTask | null;
      try {
        task = await connector.read({ id: link.externalId ?? '', key: link.externalKey ?? link.externalId ?? '' });
      } catch (err) {
        const result = classify(err, 1);
        error = result.error;
        await record(tracker, null, link.id, 'read', result);
        // A tracker that is down or throttling: the next pull goes on where this one stopped.
        if (result.outcome === 'retrying') break;
        continue;
      }
      read++;
      const now = clock.now();
      const didChange = await db.transaction(async (tx) => {
        const txRepo = createTrackersRepo(tx);
        if (!task) {
          await txRepo.updateLink(link.id, { status: 'deleted', lastPulledAt: now, updatedAt: now });
          return false;
        }
        const moved = await applyRemote(tx, tracker, link, task, now);
        await txRepo.updateLink(link.id, { ...remoteFields(task, now), lastPulledAt: now });
        return moved;
      });
      if (!task) missing++;
      if (didChange) changed++;
      await createTrackersRepo(db).recordSuccess(tracker.id);
      log.debug({ trackerId, link: link.id, ms: Math.round(performance.now() - started) }, 'tracker task read');
    }
    await repo.update(tracker.id, { lastPullAt: clock.now(), lastPullError: error });
    const message = error
      ? `Read ${read} tasks, then stopped: ${error}`
      : `Read ${read} ${read === 1 ? 'task' : 'tasks'}: ${changed} changed a triage record${missing ? `, ${missing} deleted in the tracker` : ''}`;
    return { read, changed, missing, message };
  }

  /** Queues the comments of one sync's changes on the tasks of the items it changed; returns how many were new. */
  async function commentsForSync(syncId: number): Promise<number> {
    const touched = (await touchedChanges(db, { syncId })).filter((c) => c.changeType !== 'new');
    if (touched.length === 0) return 0;
    const links = await createTrackersRepo(db).linksOfItems([...new Set(touched.map((c) => c.itemRowId))]);
    if (links.length === 0) return 0;
    const now = clock.now();
    let queued = 0;
    await db.transaction(async (tx) => {
      const repo = createTrackersRepo(tx);
      for (const link of links) {
        const lines = touched.filter((c) => c.itemRowId === link.itemId).flatMap((c) => summarizeChange(c, SOURCE_ITEM_NOUNS[c.source]).lines);
        if (lines.length === 0) continue;
        const text = ['M365 Radar: the item changed.', ...lines.map((l) => `- ${l}`)].join('\n');
        const dedupeKey = `comment:${link.id}:${syncId}`;
        if ((await repo.enqueue({ trackerId: link.trackerId, linkId: link.id, action: 'comment', text, dedupeKey, now })) !== null) queued++;
      }
    });
    return queued;
  }

  async function pullAll(): Promise<number> {
    let read = 0;
    for (const row of await createTrackersRepo(db).list()) {
      if (rt.isStopping() || row.paused) continue;
      read += (await pull(row.id)).read;
    }
    return read;
  }

  return { pull, pullAll, commentsForSync };
}
