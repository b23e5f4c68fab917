import type { DbOrTx } from '../../db/client.js';
import { lockSharedWrites } from '../../db/source-lock.js';
import type { ItemRow, SyncHistoryRow } from '../../db/schema/index.js';
import { planSync, type ItemChange, type SyncCounts } from './plan.js';
import type { SourceAdapter } from './records.js';
import { refreshProductFamilies } from './derived-fields.repo.js';
import { setDemoFlag } from './demo-state.repo.js';
import type { SnapshotReactor } from './snapshot-reactor.js';
import { finishRun, type RunResult } from './sync-history.repo.js';
import { countTenantLive, expireTenantLinks, liveElsewhere, tenantLinks, upsertTenantLinks } from './tenant-links.repo.js';
import type { ExistingItem } from './plan.js';
import { holdReason, snapshotHash, SnapshotHeldError, type GuardPolicy } from './snapshot-guard.js';
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

export interface ApplyArgs<R> {
  adapter: SourceAdapter<R>;
  snapshot: R[];
  now: Date;
  syncId: number;
  demo: boolean;
  finishedAt: () => Date;
  /** The snapshot guard's limits; null applies whatever the snapshot removes ("Apply anyway"). */
  guard: GuardPolicy | null;
  /** Fills in what a lossy format (the RSS fallback) could not carry from the stored rows, before anything is compared. */
  reconcile?: (tx: DbOrTx, snapshot: R[]) => Promise<R[]>;
  /** Written on the run row with its counts (what was read, from where, why). */
  finish?: Pick<RunResult, 'feedFormat' | 'note' | 'validators' | 'warning' | 'drift'>;
  /** More writes that must commit with the snapshot (superseding held snapshots, marking one applied). */
  afterApply?: (tx: DbOrTx) => Promise<void>;
  /** The features that react inside the snapshot's transaction (triage opens its records), in order. */
  reactors?: readonly SnapshotReactor[];
  /**
   * The tenant whose Message Center this snapshot is. Posts are shared by the tenants that received them: the
   * snapshot decides what this tenant lists (item_tenants), and a post is removed only when no tenant lists it any
   * more. Without a tenant the snapshot is the whole source (the roadmap, a file, the demo set).
   */
  tenant?: { id: number } | null;
}

/**
 * Writes one snapshot inside the caller's transaction: loads the existing rows once (bodies only for items whose
 * content hash moved), plans in memory, checks the snapshot guard (throwing SnapshotHeldError rolls everything back),
 * then writes in batches and finishes the sync-history row, so the counts and the data commit or roll back together.
 */
export async function applySnapshot<R>(tx: DbOrTx, args: ApplyArgs<R>): Promise<ApplyOutcome> {
  const { adapter, now, syncId, demo } = args;
  if (args.tenant) await lockSharedWrites(tx);
  const fetched = args.reconcile ? await args.reconcile(tx, args.snapshot) : args.snapshot;
  const snapshot = adapter.reconcile ? await adapter.reconcile(tx, fetched) : fetched;
  const removedDemoItems = demo ? 0 : await deleteDemoItems(tx, adapter.itemSource);
  if (removedDemoItems > 0) await setDemoFlag(tx, adapter.itemSource, false, now);

  const existing = await loadExistingIndex(tx, adapter.itemSource);
  const rows = new Map(snapshot.map((record) => [adapter.externalId(record), adapter.toRow(record)]));
  const needFull: number[] = [];
  for (const [externalId, row] of rows) {
    const before = existing.get(externalId);
    if (before && before.contentHash !== row.contentHash) needFull.push(before.id);
  }
  const fullRows = new Map<string, ItemRow>((await loadFullRows(tx, needFull)).map((r) => [r.externalId, r]));
  const scope = args.tenant ? await tenantScope(tx, args.tenant.id, adapter, snapshot, existing, rows) : null;
  const plan = planSync({ adapter, snapshot: scope?.snapshot ?? snapshot, existing: scope?.existing ?? existing, fullRows, now });
  plan.counts.itemsProcessed = snapshot.length;

  // A source that keeps what its feed stops listing removes nothing: no snapshot can be suspicious.
  if (args.guard !== null && !adapter.keepsUnlisted) {
    let activeBefore = 0;
    for (const item of existing.values()) if (!item.isRemoved) activeBefore++;
    // For a tenant: what it lists now, and what this snapshot would stop it listing (removed, or still shared).
    const stats = scope
      ? { itemCount: snapshot.length, activeBefore: scope.liveBefore, wouldRemove: scope.gone.length }
      : { itemCount: snapshot.length, activeBefore, wouldRemove: plan.counts.removedItems };
    const reason = holdReason(stats, args.guard);
    if (reason) throw new SnapshotHeldError(reason, stats, snapshotHash([...rows].map(([id, row]) => [id, row.contentHash])));
  }

  // The fields a tenant's run writes are that tenant's copy; an unscoped run's are no tenant's.
  const contentTenantId = args.tenant?.id ?? null;
  for (const insert of plan.inserts) insert.contentTenantId = contentTenantId;
  for (const update of plan.updates) if (update.set.contentHash !== undefined) update.set.contentTenantId = contentTenantId;
  const insertedIds = await insertItems(tx, adapter.itemSource, plan.inserts, demo ? { isDemo: true } : {});
  const idOf = (externalId: string) => {
    const id = existing.get(externalId)?.id ?? insertedIds.get(externalId);
    if (id === undefined) throw new Error(`sync: no row id for ${externalId}`);
    return id;
  };
  await updateItems(tx, plan.updates);
  await markRemoved(
    tx,
    plan.removals.map((r) => r.id),
    now,
  );
  await insertHistory(tx, plan.history, idOf, now, syncId);
  await refreshProductFamilies(tx, { ids: [...insertedIds.values(), ...plan.updates.map((u) => u.id)] });

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
  if (args.tenant && scope) {
    const listed = snapshot.map((record) => ({
      itemId: idOf(adapter.externalId(record)),
      lastModifiedAt: adapter.modifiedDate(record),
      expired: !adapter.isActive(record, now),
    }));
    await upsertTenantLinks(tx, args.tenant.id, listed, now);
    await expireTenantLinks(
      tx,
      args.tenant.id,
      scope.gone.map((g) => g.id),
    );
  }
  const applied = {
    syncId,
    source: adapter.itemSource,
    now,
    tenantId: args.tenant?.id ?? null,
    newItemIds: [...insertedIds.values()],
    listedItemIds: args.tenant ? snapshot.map((record) => idOf(adapter.externalId(record))) : [],
    updatedItemIds: plan.updates.map((u) => u.id),
  };
  for (const react of args.reactors ?? []) await react(tx, applied);
  await args.afterApply?.(tx);

  const totalItems = args.tenant ? await countTenantLive(tx, args.tenant.id, adapter.itemSource) : await countActive(tx, adapter.itemSource);
  const run = await finishRun(tx, syncId, { status: 'success', finishedAt: args.finishedAt(), counts: plan.counts, totalItems, ...args.finish });
  const changes = plan.changes.map((c) => ({ ...c, itemId: idOf(c.externalId) }));
  return { run, counts: plan.counts, changes, removedDemoItems };
}

/**
 * What a tenant's snapshot may change. A record that differs from the stored post is a change over time when it is
 * newer, or when the stored fields are this tenant's own copy (Microsoft does not always move lastModifiedDateTime).
 * Another tenant's older or equally old copy that differs is a difference between tenants: the post keeps its newest
 * version and no history is written.
 * Of the posts the tenant listed and no longer does, only those no other tenant lists can be removed; the others
 * just stop being this tenant's. Posts only other tenants received are not this snapshot's to judge.
 */
async function tenantScope<R>(
  tx: DbOrTx,
  tenantId: number,
  adapter: SourceAdapter<R>,
  snapshot: R[],
  existing: Map<string, ExistingItem>,
  rows: Map<string, { contentHash: string }>,
) {
  const links = await tenantLinks(tx, tenantId, adapter.itemSource);
  const listed = new Set(snapshot.map((record) => adapter.externalId(record)));
  const planned = snapshot.filter((record) => {
    const externalId = adapter.externalId(record);
    const before = existing.get(externalId);
    if (!before || before.isRemoved || rows.get(externalId)?.contentHash === before.contentHash) return true;
    // The tenant's own copy (or one no tenant wrote) changed: a change over time, even if Microsoft kept the date.
    if ((before.contentTenantId ?? null) === null || before.contentTenantId === tenantId) return true;
    return (adapter.modifiedDate(record)?.getTime() ?? 0) > (before.modifiedDate?.getTime() ?? 0);
  });
  const plannedIds = new Set(planned.map((record) => adapter.externalId(record)));
  const gone = [...existing.values()].filter((item) => !listed.has(item.externalId) && links.get(item.id)?.expired === false);
  const shared = await liveElsewhere(
    tx,
    tenantId,
    gone.map((item) => item.id),
  );
  const removable = new Set(gone.filter((item) => !shared.has(item.id)).map((item) => item.externalId));
  let liveBefore = 0;
  for (const link of links.values()) if (!link.expired) liveBefore++;
  return {
    snapshot: planned,
    existing: new Map([...existing].filter(([externalId]) => plannedIds.has(externalId) || removable.has(externalId))),
    gone,
    liveBefore,
  };
}
