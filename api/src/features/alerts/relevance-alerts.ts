import { RELEVANCE_LEVEL_LABELS, type AlertItem, type AlertOn, type RelevanceLevel } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { RELEVANCE_LEVEL_VALUE, relevanceLevelOf } from '../../db/schema/index.js';
import type { TenantScope } from '../items/item-query.js';
import { shareUrlOf } from '../items/share-link.js';
import { createRelevanceRepo } from '../relevance/relevance.repo.js';
import { tenantNamesOf, type RelevanceMove } from './relevance-moves.repo.js';

/** "High", "Medium", "Low" for a stored level. */
const labelOf = (value: number) => RELEVANCE_LEVEL_LABELS[relevanceLevelOf(value)];

export interface RelevanceMatch {
  /** Items the search's view shows now (its whole filter, relevance included, with the owner's scope). */
  inView: Set<number>;
  /** Whether the search's owner may see the tenant now. */
  seesTenant: (tenantId: number) => boolean;
  /** Moves before this (the search was saved then) are not the search's. */
  since: Date;
  publicUrl: string;
}

/**
 * What a saved search on relevance (`relevance=high`) says of the moves of levels: an item whose level for one of the
 * owner's tenants came into the search's levels ("Now High relevance for Contoso (was Medium): …") is a change to it,
 * as the item now shows in its view. Per item and tenant the moves taken together count (Medium → High → Medium is
 * none), and only when the row still says so. Left out: moves of a tenant the owner may not see, of an item outside
 * the view, a move that followed the item's own change of products or services (that change's alert tells it), and
 * a move back into the levels the pair left less than a week before (a share going to and fro around a threshold
 * alerts once). A search without relevance levels gets none: its view does not depend on them. `tenantIds`: the
 * tenants the items' lines tell of (their usage is in the alert, so it is withdrawn if the owner loses sight of one).
 */
export function relevanceAlertItems(
  moves: readonly RelevanceMove[],
  levels: readonly RelevanceLevel[] | undefined,
  match: RelevanceMatch,
): { items: AlertItem[]; tenantIds: number[] } {
  if (!levels?.length) return { items: [], tenantIds: [] };
  const wanted = new Set(levels.map((level) => RELEVANCE_LEVEL_VALUE[level]));
  const byPair = new Map<string, RelevanceMove[]>();
  for (const move of moves) {
    if (move.movedAt < match.since || move.namesChanged || !match.inView.has(move.itemRowId) || !match.seesTenant(move.tenantId)) continue;
    const key = `${move.itemRowId}:${move.tenantId}`;
    byPair.set(key, [...(byPair.get(key) ?? []), move]);
  }
  const entered: { first: RelevanceMove; last: RelevanceMove; now: number; reason: string }[] = [];
  for (const pair of byPair.values()) {
    const first = pair[0];
    const last = pair.at(-1);
    if (!first || !last || last.currentLevel === null || last.currentReason === null) continue;
    if (wanted.has(first.fromLevel) || !wanted.has(last.currentLevel)) continue;
    if (first.earlier.some((e) => wanted.has(e.fromLevel) && !wanted.has(e.toLevel))) continue;
    entered.push({ first, last, now: last.currentLevel, reason: last.currentReason });
  }
  entered.sort((a, b) => a.last.itemRowId - b.last.itemRowId || a.first.tenantName.localeCompare(b.first.tenantName));
  const byItem = new Map<number, AlertItem>();
  for (const { first, last, now, reason } of entered) {
    const line = `Now ${labelOf(now)} relevance for ${first.tenantName} (was ${labelOf(first.fromLevel)}): ${reason}`;
    const item = byItem.get(last.itemRowId);
    if (item) {
      item.changes.push(line);
      if (last.movedAt.toISOString() > item.changedAt) item.changedAt = last.movedAt.toISOString();
      continue;
    }
    byItem.set(last.itemRowId, {
      id: `${last.source}-${last.externalId}`,
      source: last.source,
      externalId: last.externalId,
      title: last.title,
      change: 'changed',
      changes: [line],
      url: shareUrlOf(match.publicUrl, last),
      changedAt: last.movedAt.toISOString(),
    });
  }
  return {
    items: [...byItem.values()].sort((a, b) => a.changedAt.localeCompare(b.changedAt)),
    tenantIds: [...new Set(entered.map((e) => e.first.tenantId))],
  };
}

/**
 * The items of the syncs' changes with those of relevance moves: a move is a change, so only searches on changes get
 * it; an item that changed too gets the move's lines after its own, a new item keeps being new.
 */
export function withRelevanceItems(items: AlertItem[], moved: readonly AlertItem[], alertOn: readonly AlertOn[]): AlertItem[] {
  if (!alertOn.includes('changed') || moved.length === 0) return items;
  const out = items.map((i) => ({ ...i, changes: [...i.changes] }));
  for (const m of moved) {
    const existing = out.find((i) => i.id === m.id);
    if (!existing) out.push(m);
    else if (existing.change !== 'new') existing.changes.push(...m.changes.filter((l) => !existing.changes.includes(l)));
  }
  return out;
}

/**
 * Each alert item's relevance to the search owner's tenants (`scope`), as the list's chip says it: the highest level
 * among the tenants they may see, with the tenant's name and the reason; set on the items in place, none for Unknown
 * or an item with no row there. `rowIdOf` maps an item's id (`roadmap-500101`) to its row. Returns the tenants told
 * of: the delivery keeps them, to withdraw it if the owner loses sight of one.
 */
export async function withItemRelevance(db: DbOrTx, items: AlertItem[], rowIdOf: ReadonlyMap<string, number>, scope: TenantScope): Promise<number[]> {
  const rows = items.flatMap((item) => {
    const rowId = rowIdOf.get(item.id);
    return rowId === undefined ? [] : [{ item, rowId }];
  });
  const highest = await createRelevanceRepo(db).highestOf(
    rows.map((r) => r.rowId),
    scope,
    undefined,
  );
  const names = await tenantNamesOf(
    db,
    [...highest.values()].map((r) => r.tenantId),
  );
  const told = new Set<number>();
  for (const { item, rowId } of rows) {
    const r = highest.get(rowId);
    const tenant = r ? names.get(r.tenantId) : undefined;
    if (!r || r.level === 'unknown' || tenant === undefined) continue;
    item.relevance = { level: r.level, tenant, tenantId: r.tenantId, reason: r.reason };
    told.add(r.tenantId);
  }
  return [...told];
}
