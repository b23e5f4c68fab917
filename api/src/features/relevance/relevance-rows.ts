import { relevanceOf, type Relevance, type RelevanceThresholds } from '@radar/contracts';
import { RELEVANCE_LEVEL_VALUE } from '../../db/schema/index.js';
import type { RelevanceItem, RelevanceRow, TenantInputs } from './relevance.repo.js';

// What a refresh writes, worked out in memory from what it read: the rows the items' relevance should have now, and
// how they differ from the rows kept.

/** A row as kept: what `relevanceOf` said, with the level as stored. */
function rowOf(itemId: number, tenantId: number, r: Relevance): RelevanceRow {
  return {
    itemId,
    tenantId,
    level: RELEVANCE_LEVEL_VALUE[r.level],
    workload: r.workload ?? null,
    activeUsers: r.activeUsers ?? null,
    share: r.share ?? null,
    reason: r.reason,
  };
}

/**
 * Every row the items should have: per tenant, each roadmap item and each post the tenant received. An
 * item's relevance to a tenant depends only on its names, so it is computed once per tenant and distinct list of
 * products (a few hundred for thousands of items), not once per item.
 */
export function wantedRows(tenants: readonly TenantInputs[], items: readonly RelevanceItem[], thresholds: RelevanceThresholds): RelevanceRow[] {
  const rows: RelevanceRow[] = [];
  for (const tenant of tenants) {
    const byNames = new Map<string, Relevance>();
    const input = { usageRead: tenant.usageRead, usage: tenant.usage, licensedProducts: tenant.licensedProducts, thresholds };
    for (const item of items) {
      if (item.source !== 'roadmap' && !item.tenantIds.includes(tenant.id)) continue;
      const key = item.products.join('\n');
      let relevance = byNames.get(key);
      if (!relevance) {
        relevance = relevanceOf({ ...input, names: item.products });
        byNames.set(key, relevance);
      }
      rows.push(rowOf(item.id, tenant.id, relevance));
    }
  }
  return rows;
}

const keyOf = (r: { itemId: number; tenantId: number }) => `${r.itemId}:${r.tenantId}`;

/** A share as stored (`real`): compared at that precision, or a share like 1240/1513 would differ on every refresh. */
const asStored = (share: number | null) => (share === null ? null : Math.fround(share));

function same(a: RelevanceRow, b: RelevanceRow): boolean {
  return (
    a.level === b.level && a.workload === b.workload && a.activeUsers === b.activeUsers && asStored(a.share) === asStored(b.share) && a.reason === b.reason
  );
}

/**
 * What to write (rows new or different) and what to delete (kept rows no longer wanted) to make `stored` into `wanted`,
 * and the items whose level for some tenant moved (a row new, deleted, or of another level: what triage reacts to).
 */
export function rowChanges(wanted: readonly RelevanceRow[], stored: readonly RelevanceRow[]) {
  const kept = new Map(stored.map((row) => [keyOf(row), row]));
  const write: RelevanceRow[] = [];
  const moved = new Set<number>();
  for (const row of wanted) {
    const key = keyOf(row);
    const before = kept.get(key);
    kept.delete(key);
    if (!before || !same(before, row)) write.push(row);
    if (!before || before.level !== row.level) moved.add(row.itemId);
  }
  const remove = [...kept.values()].map(({ itemId, tenantId }) => ({ itemId, tenantId }));
  for (const row of remove) moved.add(row.itemId);
  return { write, remove, moved: [...moved] };
}
