import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { SavedSearchQuery, Source } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, items, syncHistory } from '../../db/schema/index.js';
import { itemWhere, searchPlan, type ItemWhereFilters, type TenantScope } from '../items/item-query.js';
import { runSql } from '../items/items.repo.js';
import { isCosmeticChange } from '../sync/cosmetic.js';

/** One meaningful history entry with its item (cosmetic edits are left out: they alert nobody, like item mails). */
export interface TouchedChange {
  itemRowId: number;
  source: Source;
  externalId: string;
  title: string;
  changeType: 'new' | 'changed' | 'removed';
  changeDate: Date;
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
  /** The tenant whose Message Center run recorded the change (null: the roadmap, or a run of no tenant). */
  tenantId: number | null;
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
      tenantId: syncHistory.tenantId,
    })
    .from(itemHistory)
    .innerJoin(items, eq(items.id, itemHistory.itemId))
    .leftJoin(syncHistory, eq(syncHistory.id, itemHistory.syncId))
    .where(and(where, inArray(itemHistory.changeType, ['new', 'changed', 'removed'])))
    .orderBy(itemHistory.id);
  return rows.filter((r) => !isCosmeticChange(r));
}

/**
 * Which of the touched items the saved search's view shows: the list's own WHERE clause (items/item-query.ts) over
 * those rows only, evaluated at `now` (the sync's or the digest slot's time, so a re-run decides the same way for
 * time windows such as "changed in the last 7 days"), and only posts of tenants the search's owner may see.
 */
export async function itemsInView(pool: pg.Pool, itemRowIds: number[], query: SavedSearchQuery, now: Date, tenantScope?: TenantScope): Promise<Set<number>> {
  if (itemRowIds.length === 0) return new Set();
  const filters: ItemWhereFilters = { ...(query as ItemWhereFilters), tenantScope };
  const rows = await runSql<{ id: number }>(
    pool,
    sql`SELECT items.id FROM items WHERE items.id = ANY(${sql.param([...new Set(itemRowIds)])}::int[]) AND ${itemWhere(filters, now, searchPlan(filters.search))}`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}
