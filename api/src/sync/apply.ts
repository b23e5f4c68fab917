import type { DbOrTx } from '../db/client.js';
import type { ItemRow, SyncHistoryRow } from '../db/schema.js';
import { planSync, type ItemChange, type SyncCounts } from './plan.js';
import type { SourceAdapter } from './records.js';
import { setDemoFlag } from './demo-state.js';
import { finishRun } from './sync-history.repo.js';
import {
  countActive,
  deleteDemoItems,
  insertHistory,
  insertItems,
  loadExistingIndex,
  loadFullRows,
  markRemoved,
  replaceLinks,
  updateItems,
  type LinkRow,
} from './sync.repo.js';

export interface ApplyOutcome {
  run: SyncHistoryRow;
  counts: SyncCounts;
  changes: (ItemChange & { itemId: number })[];
  removedDemoItems: number;
}

/**
 * Writes one snapshot inside the caller's transaction: loads the existing rows once (bodies only for items whose
 * content hash moved), plans in memory, then writes in batches and finishes the sync-history row, so the counts
 * and the data commit or roll back together.
 */
export async function applySnapshot<R>(
  tx: DbOrTx,
  args: { adapter: SourceAdapter<R>; snapshot: R[]; now: Date; syncId: number; demo: boolean; finishedAt: () => Date },
): Promise<ApplyOutcome> {
  const { adapter, snapshot, now, syncId, demo } = args;
  const removedDemoItems = demo ? 0 : await deleteDemoItems(tx, adapter.itemSource);
  if (removedDemoItems > 0) await setDemoFlag(tx, adapter.itemSource, false, now);

  const existing = await loadExistingIndex(tx, adapter.itemSource);
  const needFull: number[] = [];
  for (const record of snapshot) {
    const before = existing.get(adapter.externalId(record));
    if (before && before.contentHash !== adapter.toRow(record).contentHash) needFull.push(before.id);
  }
  const fullRows = new Map<string, ItemRow>((await loadFullRows(tx, needFull)).map((r) => [r.externalId, r]));
  const plan = planSync({ adapter, snapshot, existing, fullRows, now });

  const insertedIds = await insertItems(tx, adapter.itemSource, plan.inserts, demo ? { isDemo: true } : {});
  const idOf = (externalId: string) => {
    const id = existing.get(externalId)?.id ?? insertedIds.get(externalId);
    if (id === undefined) throw new Error(`sync: no row id for ${externalId}`);
    return id;
  };
  await updateItems(tx, plan.updates);
  await markRemoved(tx, plan.removals.map((r) => r.id), now);
  await insertHistory(tx, plan.history, idOf, now, syncId);

  if (adapter.roadmapLinks && plan.relink.length > 0) {
    const relink = new Set(plan.relink);
    const links: LinkRow[] = [];
    for (const record of snapshot) {
      const externalId = adapter.externalId(record);
      if (!relink.has(externalId)) continue;
      for (const l of adapter.roadmapLinks(record)) links.push({ messageItemId: idOf(externalId), ...l });
    }
    await replaceLinks(tx, plan.relink.map(idOf), links);
  }
  if (demo && snapshot.length > 0) await setDemoFlag(tx, adapter.itemSource, true, now);

  const totalItems = await countActive(tx, adapter.itemSource);
  const run = await finishRun(tx, syncId, { status: 'success', finishedAt: args.finishedAt(), counts: plan.counts, totalItems });
  const changes = plan.changes.map((c) => ({ ...c, itemId: idOf(c.externalId) }));
  return { run, counts: plan.counts, changes, removedDemoItems };
}
