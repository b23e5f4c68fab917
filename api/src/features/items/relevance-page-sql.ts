import { sql, type SQL } from 'drizzle-orm';
import { RELEVANCE_LEVEL_VALUE } from '../../db/schema/index.js';
import { itemWhere, nullsLastSql, sortDirectionSql, type ItemListRequest } from './item-query.js';
import { highestRelevanceIs, relevanceTenantsSql } from './relevance-sql.js';
import type { TriageLens } from './triage-lens.js';

const LEVELS_DOWN = [RELEVANCE_LEVEL_VALUE.high, RELEVANCE_LEVEL_VALUE.medium, RELEVANCE_LEVEL_VALUE.low, RELEVANCE_LEVEL_VALUE.unknown];

/**
 * One page of the list sorted by relevance ("Relevant to us first"), without a search: rows of (item_id, lvl, sort_at)
 * in list order, or null for a guest (whose sort key is empty: the plain order answers). The order is the item's
 * highest level among the tenants in scope (High first with `desc`), then newest, then the id; items without any
 * relevance there come last in both directions.
 *
 * A top-N walk, level by level, rather than the highest level of every item sorted: the page's `offset + limit` rows
 * are taken from the items whose highest level is the first level (walking the created-date index, each item probed
 * for its rows, or the level's rows read once and joined, as the planner finds cheaper), and only when those are fewer
 * does the next level's branch run at all (its LIMIT is what is still wanted; a LIMIT of 0 reads nothing), down to the
 * items without relevance. A `relevance` filter drops the levels below its lowest (an item whose highest level is
 * under every level asked for cannot have one of them) and the items without relevance.
 */
export function relevancePageSql(q: ItemListRequest, now: Date, limit: number, offset: number, lens?: TriageLens): SQL | null {
  const tenants = relevanceTenantsSql(q);
  if (!tenants) return null;
  const want = offset + limit;
  const dir = sortDirectionSql(q);
  const filtered = q.relevance?.length ? Math.min(...q.relevance.map((level) => RELEVANCE_LEVEL_VALUE[level])) : null;
  const ordered = q.sortDirection === 'asc' ? [...LEVELS_DOWN].reverse() : LEVELS_DOWN;
  const levels: (number | null)[] = filtered === null ? [...ordered, null] : ordered.filter((level) => level >= filtered);
  const where = itemWhere(q, now, null, 'all', lens);
  const names = levels.map((_, i) => sql.raw(`level_${i}`));
  const branches = levels.map((level, i) => {
    const taken = names.slice(0, i).map((name) => sql` - (SELECT count(*) FROM ${name})`);
    const lvl = level === null ? sql`NULL::smallint` : sql`${sql.raw(String(level))}::smallint`;
    return sql`${names[i]} AS MATERIALIZED (
      SELECT items.id, items.created_date AS sort_at, ${lvl} AS lvl FROM items
      WHERE ${where} AND ${highestRelevanceIs(level, tenants)}
      ORDER BY items.created_date ${dir}, items.id ${dir} LIMIT ${i === 0 ? sql`${want}` : sql`(SELECT ${want}${sql.join(taken, sql``)})`})`;
  });
  const union = sql.join(
    names.map((name) => sql`SELECT id, sort_at, lvl FROM ${name}`),
    sql` UNION ALL `,
  );
  return sql`WITH ${sql.join(branches, sql`, `)}
    SELECT id AS item_id, lvl, sort_at FROM (${union}) AS walked
    ORDER BY lvl ${nullsLastSql(q)}, sort_at ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
}
