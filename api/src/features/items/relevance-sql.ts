import { sql, type SQL } from 'drizzle-orm';
import type { RelevanceLevel } from '@radar/contracts';
import { RELEVANCE_LEVEL_VALUE } from '../../db/schema/index.js';
import type { TenantScope } from '../tenants/tenant-audience.js';
import { visibleTenant } from './visible-tenant.js';

// The list's relevance (docs/product/relevance.md) as SQL on `item_relevance`, the rows features/relevance keeps per
// item and tenant: the filter, the sort key and the branches of the sorted page. Relevance is a tenant's own business
// (a reason tells its usage), so a guest's list reads none: the filter keeps nothing and the sort key is empty.

/** What decides whose relevance a list reads: the caller's scope and the list's `tenants` filter. */
export interface RelevanceScope {
  tenantScope?: TenantScope;
  tenants?: number[];
}

/**
 * The tenants whose relevance the list reads, as an array read once per statement (an InitPlan): those the caller may
 * see that are neither removed nor disabled, and of them those of `tenants` when the list names some. Null for a guest.
 */
export function relevanceTenantsSql(f: RelevanceScope): SQL | null {
  if (f.tenantScope === undefined) return null;
  const conds = [sql`t.removed_at IS NULL AND t.enabled`];
  if (f.tenantScope !== 'all') conds.push(visibleTenant(f.tenantScope));
  if (f.tenants?.length) conds.push(sql`t.id = ANY(${sql.param([...f.tenants])}::integer[])`);
  return sql`ARRAY(SELECT t.id FROM tenants t WHERE ${sql.join(conds, sql` AND `)})`;
}

/** The rows `r` of the item's relevance to the tenants in `tenants`. */
const rowsOf = (tenants: SQL) => sql`r.item_id = items.id AND r.tenant_id = ANY(${tenants})`;

/**
 * `relevance=high,medium`: items whose relevance to one of the tenants in scope is one of the levels. The planner
 * either probes each item it walks ((tenant, level, item) index, index only) or reads the matching rows of the
 * scope's tenants once and joins them; a guest's list keeps nothing.
 */
export function relevanceCondition(levels: readonly RelevanceLevel[], f: RelevanceScope): SQL {
  const tenants = relevanceTenantsSql(f);
  if (!tenants) return sql`false`;
  const values = [...new Set(levels.map((level) => RELEVANCE_LEVEL_VALUE[level]))].sort();
  return sql`EXISTS (SELECT 1 FROM item_relevance r WHERE ${rowsOf(tenants)} AND r.level = ANY(${sql.param(values)}::smallint[]))`;
}

/**
 * The `relevance` sort key for a plain ORDER BY (a search's rank window, the export): the item's highest level among
 * the tenants in scope, null when it has none there (always, for a guest). One probe of the item's rows per item; the
 * list's own pages walk the levels instead (relevance-page-sql.ts).
 */
export function maxRelevanceSql(f: RelevanceScope): SQL {
  const tenants = relevanceTenantsSql(f);
  if (!tenants) return sql`NULL::smallint`;
  return sql`(SELECT max(r.level) FROM item_relevance r WHERE ${rowsOf(tenants)})`;
}

/** Items whose highest level among `tenants` is `level` (a stored value); null: items with no row of those tenants. */
export function highestRelevanceIs(level: number | null, tenants: SQL): SQL {
  const some = (cond: SQL) => sql`EXISTS (SELECT 1 FROM item_relevance r WHERE ${rowsOf(tenants)} AND ${cond})`;
  if (level === null) return sql`NOT ${some(sql`true`)}`;
  const at = some(sql`r.level = ${sql.raw(String(Math.trunc(level)))}`);
  return level >= RELEVANCE_LEVEL_VALUE.high ? at : sql`${at} AND NOT ${some(sql`r.level > ${sql.raw(String(Math.trunc(level)))}`)}`;
}
