import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { items, type itemHistory } from '../../db/schema/index.js';
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
          WHERE h.change_date >= ${since} AND h.change_date < ${until} AND ${where}
          GROUP BY h.item_id ORDER BY last_change DESC, h.item_id DESC LIMIT ${limit + 1}`,
      );
      const ids = heads.slice(0, limit).map((h) => h.id);
      if (!ids.length) return { items: [], truncated: false };
      const idList = sql`${sql.param(ids)}::int[]`;
      const [rows, history] = await Promise.all([
        runSql<UnifiedItemRow>(pool, sql`SELECT ${unifiedItemSelectSql} FROM items WHERE items.id = ANY(${idList})`),
        runSql<HistoryRow>(
          pool,
          sql`SELECT item_id AS "itemId", change_type AS "changeType", change_date AS "changeDate", changed_fields AS "changedFields",
              previous_values AS "previousValues", new_values AS "newValues"
            FROM item_history WHERE item_id = ANY(${idList}) AND change_date >= ${since} AND change_date < ${until}
            ORDER BY change_date DESC, id DESC`,
        ),
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return {
        items: ids.flatMap((id) => {
          const row = byId.get(id);
          return row ? [{ row, history: history.filter((h) => h.itemId === id) }] : [];
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
