import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import { reachedTenant, type AlertItem, type AlertOn, type SavedSearchQuery } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, items } from '../../db/schema/index.js';
import { itemWhere, searchPlan, type ItemWhereFilters } from '../items/item-query.js';
import { runSql } from '../items/items.repo.js';
import { shareUrlOf } from '../items/share-link.js';
import { summarizeChange } from '../feeds/change-summary.js';
import { isCosmeticChange } from '../sync/cosmetic.js';

/** One meaningful history entry with its item (cosmetic edits are left out: they alert nobody, like item mails). */
export interface TouchedChange {
  itemRowId: number;
  source: 'roadmap' | 'messages';
  externalId: string;
  title: string;
  changeType: 'new' | 'changed' | 'removed';
  changeDate: Date;
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

/** The history entries of one sync, or of a period (digests), in order. */
export async function touchedChanges(db: DbOrTx, scope: { syncId: number } | { from: Date; to: Date }): Promise<TouchedChange[]> {
  const where = 'syncId' in scope ? eq(itemHistory.syncId, scope.syncId) : and(gte(itemHistory.changeDate, scope.from), lt(itemHistory.changeDate, scope.to));
  const rows = await db
    .select({
      itemRowId: items.id,
      source: items.source,
      externalId: items.externalId,
      title: items.title,
      changeType: itemHistory.changeType,
      changeDate: itemHistory.changeDate,
      changedFields: itemHistory.changedFields,
      previousValues: itemHistory.previousValues,
      newValues: itemHistory.newValues,
    })
    .from(itemHistory)
    .innerJoin(items, eq(items.id, itemHistory.itemId))
    .where(and(where, inArray(itemHistory.changeType, ['new', 'changed', 'removed'])))
    .orderBy(itemHistory.id);
  return rows.filter((r) => !isCosmeticChange(r));
}

/**
 * Which of the touched items the saved search's view shows: the list's own WHERE clause (items/item-query.ts) over
 * those rows only, evaluated at `now` (the sync's or the digest slot's time, so a re-run decides the same way for
 * time windows such as "changed in the last 7 days").
 */
export async function itemsInView(pool: pg.Pool, itemRowIds: number[], query: SavedSearchQuery, now: Date): Promise<Set<number>> {
  if (itemRowIds.length === 0) return new Set();
  const filters = query as ItemWhereFilters;
  const rows = await runSql<{ id: number }>(
    pool,
    sql`SELECT items.id FROM items WHERE items.id = ANY(${sql.param([...new Set(itemRowIds)])}::int[]) AND ${itemWhere(filters, now, searchPlan(filters.search))}`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

const SOURCE_LABEL = { roadmap: 'roadmap item', messages: 'Message Center post' } as const;

/**
 * One alert entry per item, newest change last merged in: 'new' when the item first appeared in the period (it
 * counts only when the search alerts on new items), else removed / restored / changed with the fields that changed.
 */
export function alertItemsOf(changes: TouchedChange[], inView: Set<number>, alertOn: AlertOn[], publicUrl: string): AlertItem[] {
  const byItem = new Map<number, AlertItem>();
  for (const c of changes) {
    if (!inView.has(c.itemRowId)) continue;
    const existing = byItem.get(c.itemRowId);
    const summary = summarizeChange(c, SOURCE_LABEL[c.source]);
    const restored = c.changeType === 'changed' && c.changedFields.includes('isRemoved') && c.newValues.isRemoved === false;
    const reached =
      c.changeType === 'changed' && c.changedFields.includes('featureStatus') ? reachedTenant(c.previousValues.featureStatus, c.newValues.featureStatus) : [];
    const change: AlertItem['change'] =
      c.changeType === 'new' ? 'new' : c.changeType === 'removed' ? 'removed' : restored ? 'restored' : reached.length ? 'reached_tenant' : 'changed';
    const lines = change === 'new' ? [] : reached.length ? [`Reached your tenant: ${reached.join(', ')}`, ...summary.lines] : summary.lines;
    if (!existing) {
      byItem.set(c.itemRowId, {
        id: `${c.source}-${c.externalId}`,
        source: c.source,
        externalId: c.externalId,
        title: c.title,
        change,
        changes: lines,
        url: shareUrlOf(publicUrl, c),
        changedAt: c.changeDate.toISOString(),
      });
      continue;
    }
    existing.title = c.title;
    existing.changedAt = c.changeDate.toISOString();
    if (existing.change !== 'new') {
      // A merged entry keeps the telling kind: removed, restored or reached beats a plain change.
      existing.change = change === 'changed' && existing.change !== 'changed' ? existing.change : change;
      existing.changes = [...existing.changes, ...lines.filter((l) => !existing.changes.includes(l))];
    }
  }
  // Reaching the tenant is a change too: it alerts searches on changes, and searches on that alone.
  const wanted = new Set<AlertItem['change']>([
    ...(alertOn.includes('new') ? ['new' as const] : []),
    ...(alertOn.includes('changed') ? (['changed', 'removed', 'restored', 'reached_tenant'] as const) : []),
    ...(alertOn.includes('reached_tenant') ? ['reached_tenant' as const] : []),
  ]);
  return [...byItem.values()].filter((i) => wanted.has(i.change));
}
