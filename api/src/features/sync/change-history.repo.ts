import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { ChangeHistoryEntry, Source } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, items, syncHistory } from '../../db/schema/index.js';
import { isCosmeticChange } from './cosmetic.js';
import { textDiffsOf } from '../items/versions/word-diff.js';
import type { TenantScope } from '../items/item-query.js';
import { visibleTenantIds } from '../items/tenant-status.repo.js';
import { changesAsSeen } from '../items/tenant-own-fields.js';

export type HistoryRow = typeof itemHistory.$inferSelect;
type ItemHead = { source: Source; externalId: string; title: string };

export function toChangeHistoryEntry(row: HistoryRow, item?: ItemHead): ChangeHistoryEntry {
  const entry: ChangeHistoryEntry = {
    id: row.id,
    changeType: row.changeType,
    changeDate: row.changeDate.toISOString(),
    changedFields: row.changedFields,
    previousValues: row.previousValues,
    newValues: row.newValues,
    minor: isCosmeticChange(row),
  };
  if (!item) return entry;
  return {
    ...entry,
    source: item.source,
    roadmapItem: item.source === 'roadmap' ? { itemId: item.externalId, title: item.title } : null,
    messageCenterItem: item.source === 'messages' ? { messageId: item.externalId, title: item.title } : null,
    healthIssue: item.source === 'health' ? { issueId: item.externalId, title: item.title } : null,
  };
}

/** Reads of change history; only the sync writes it. */
export function createChangeHistoryRepo(db: DbOrTx) {
  /**
   * One item's stored history, newest first, as a reader of the scope sees it: a change a private tenant's run
   * recorded comes without that tenant's own fields (its rollout status) unless the reader may see the tenant, and
   * a change of only those fields is left out.
   */
  async function rowsOf(itemRowId: number, scope: TenantScope | undefined): Promise<HistoryRow[]> {
    const rows = await db
      .select({ h: itemHistory, tenantId: syncHistory.tenantId })
      .from(itemHistory)
      .leftJoin(syncHistory, eq(syncHistory.id, itemHistory.syncId))
      .where(eq(itemHistory.itemId, itemRowId))
      .orderBy(desc(itemHistory.changeDate), desc(itemHistory.id));
    const seen = await visibleTenantIds(
      db,
      rows.map((r) => r.tenantId),
      scope,
    );
    return changesAsSeen(
      rows.map((r) => ({ ...r.h, tenantId: r.tenantId })),
      (id) => seen.has(id),
    ).map(({ tenantId: _tenantId, ...row }) => row);
  }
  return {
    /** One item's history, newest first (id breaks ties: entries of one sync share a date), as the scope sees it. */
    async forItem(itemRowId: number, scope: TenantScope | undefined): Promise<ChangeHistoryEntry[]> {
      return (await rowsOf(itemRowId, scope)).map((r) => toChangeHistoryEntry(r));
    },

    /** The stored rows of one item's history, newest first, as the scope sees them (what versions are rebuilt from). */
    rowsOf,

    /** Every item's history, newest first, paged, with the item's id and title. */
    async list(q: { page: number; limit: number; source?: Source; changeType?: HistoryRow['changeType'] }) {
      const filters: SQL[] = [];
      if (q.source) filters.push(eq(items.source, q.source));
      if (q.changeType) filters.push(eq(itemHistory.changeType, q.changeType));
      const where = filters.length ? and(...filters) : undefined;
      const [{ total }] = await db.select({ total: count() }).from(itemHistory).innerJoin(items, eq(itemHistory.itemId, items.id)).where(where);
      const rows = await db
        .select({ h: itemHistory, source: items.source, externalId: items.externalId, title: items.title })
        .from(itemHistory)
        .innerJoin(items, eq(itemHistory.itemId, items.id))
        .where(where)
        .orderBy(desc(itemHistory.changeDate), desc(itemHistory.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      return {
        changeHistory: rows.map((r) => ({
          ...toChangeHistoryEntry(r.h, r),
          // Prose fields as a word diff of their text: raw provider HTML cut at a preview length hid late changes.
          textDiffs: r.h.changeType === 'changed' ? textDiffsOf(r.h.changedFields, r.h.previousValues, r.h.newValues) : [],
        })),
        total,
        page: q.page,
        totalPages: Math.ceil(total / q.limit),
      };
    },
  };
}
