import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { items, type itemHistory } from '../../db/schema/index.js';
import { changeSeenSql, runSeenSql, withoutTenantOwnFields } from '../items/tenant-own-fields.js';
import { itemWhere, searchPlan, type ItemWhereFilters } from '../items/item-query.js';
import { unifiedItemSelectSql, type UnifiedItemRow } from '../items/item-mapper.js';
import { runSql } from '../items/items.repo.js';
import { releasesSql, type ReleaseItemRow } from '../feeds/feed-items.repo.js';

/**
 * `items` with every row presented as not removed, under the same name, so the list's filters (which leave removed
 * items out) select removed items too: "what changed" must report an item leaving the feed. A plain projection,
 * which PostgreSQL flattens into the outer query, so the filters still use the items indexes.
 */
type HistoryRow = Pick<typeof itemHistory.$inferSelect, 'itemId' | 'changeType' | 'changeDate' | 'changedFields' | 'previousValues' | 'newValues'>;

const itemsAsIfActive: SQL = sql`(SELECT ${sql.join(
  Object.values(getTableColumns(items)).map((c) => (c.name === 'is_removed' ? sql`false AS is_removed` : sql.identifier(c.name))),
  sql`, `,
)} FROM items) AS items`;

/** Reads behind the MCP tools that the list's repo does not already answer. */
export function createMcpItemsRepo(pool: pg.Pool) {
  return {
    /**
     * Items matching the filters with change history in [since, until), the most recently changed first (at most
     * `limit`), each with its entries in the range, newest first.
     */
    async changedBetween(filters: ItemWhereFilters, now: Date, since: Date, until: Date, limit: number) {
      const where = itemWhere(filters, now, searchPlan(filters.search));
      const heads = await runSql<{ id: number }>(
        pool,
        sql`SELECT h.item_id AS id, max(h.change_date) AS last_change FROM item_history h JOIN ${itemsAsIfActive} ON items.id = h.item_id
          WHERE h.change_date >= ${since} AND h.change_date < ${until} AND ${where} AND ${changeSeenSql(filters.tenantScope)}
          GROUP BY h.item_id ORDER BY last_change DESC, h.item_id DESC LIMIT ${limit + 1}`,
      );
      const ids = heads.slice(0, limit).map((h) => h.id);
      if (!ids.length) return { items: [], truncated: false };
      const idList = sql`${sql.param(ids)}::int[]`;
      const [rows, history] = await Promise.all([
        runSql<UnifiedItemRow>(pool, sql`SELECT ${unifiedItemSelectSql} FROM items WHERE items.id = ANY(${idList})`),
        runSql<HistoryRow & { runSeen: boolean }>(
          pool,
          sql`SELECT h.item_id AS "itemId", h.change_type AS "changeType", h.change_date AS "changeDate", h.changed_fields AS "changedFields",
              h.previous_values AS "previousValues", h.new_values AS "newValues", ${runSeenSql(filters.tenantScope)} AS "runSeen"
            FROM item_history h WHERE h.item_id = ANY(${idList}) AND h.change_date >= ${since} AND h.change_date < ${until}
            ORDER BY h.change_date DESC, h.id DESC`,
        ),
      ]);
      // A change a run of a tenant the reader may not see recorded: without that tenant's own fields.
      const seen = history.flatMap(({ runSeen, ...h }) => {
        const change = runSeen ? h : withoutTenantOwnFields(h);
        return change ? [change] : [];
      });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return {
        items: ids.flatMap((id) => {
          const row = byId.get(id);
          return row ? [{ row, history: seen.filter((h) => h.itemId === id) }] : [];
        }),
        truncated: heads.length > limit,
      };
    },

    /** Roadmap items matching the filters whose GA month is in [from, to] (`YYYY-MM`), soonest first. */
    async gaBetween(filters: ItemWhereFilters, now: Date, from: string, to: string, limit: number) {
      const where = itemWhere(filters, now, searchPlan(filters.search));
      const rows = await runSql<ReleaseItemRow>(pool, releasesSql(where, { from: `${from}-01`, to: `${to}-01`, gaOnly: true, limit: limit + 1 }));
      return { rows: rows.slice(0, limit), truncated: rows.length > limit };
    },
  };
}
