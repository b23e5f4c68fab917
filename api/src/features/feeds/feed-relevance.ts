import { RELEVANCE_LEVEL_LABELS, relevanceReasonText, type RelevanceLevel } from '@radar/contracts';
import type { AppContext } from '../../app-context.js';
import type { ItemWhereFilters } from '../items/item-query.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';

/** An entry's relevance for a signed-in reader, in the words every feed format writes it. */
export interface FeedRelevance {
  level: RelevanceLevel;
  /** The entry's category: "Relevance: High" (a reader can filter or colour by it). */
  category: string;
  /** "Relevance: High — Contoso: 1,240 people used Teams in the last 30 days, 82 % of licensed users". */
  line: string;
}

/** The relevance of the items of a feed, by item id (items without any are absent). */
export type FeedRelevanceOf = (itemIds: number[]) => Promise<Map<number, FeedRelevance>>;

/**
 * How a feed reads its entries' relevance: as the list's chip shows it, the highest level among the tenants the reader
 * may see (those of `tenants=` when the view names some), one query per feed; with several tenants to see, the reason
 * names its tenant. Null for a guest: a reason tells a tenant's usage, which is the tenant's own business.
 */
export function feedRelevanceReader(ctx: AppContext, filters: ItemWhereFilters): FeedRelevanceOf | null {
  const scope = filters.tenantScope;
  if (scope === undefined) return null;
  return async (itemIds) => {
    const out = new Map<number, FeedRelevance>();
    if (!itemIds.length) return out;
    const [highest, tenants] = await Promise.all([ctx.services.relevance.highestOf(itemIds, scope, filters.tenants), createTenantsRepo(ctx.db).visible(scope)]);
    const names = new Map(tenants.map((t) => [t.id, t.name]));
    for (const [itemId, r] of highest) {
      const category = `Relevance: ${RELEVANCE_LEVEL_LABELS[r.level]}`;
      const reason = relevanceReasonText(r.reason, names.size > 1 ? names.get(r.tenantId) : null);
      out.set(itemId, { level: r.level, category, line: `${category} — ${reason}` });
    }
    return out;
  };
}
