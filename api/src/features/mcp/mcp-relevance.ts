import type { McpRelevance, TenantRelevance } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import type { TenantScope } from '../items/item-query.js';
import { createRelevanceRepo } from '../relevance/relevance.repo.js';
import { toTenantRelevance } from '../relevance/tenant-relevance.js';
import { createTenantsRepo } from '../tenants/tenants.repo.js';

/** What the tools say of relevance to a caller with an identity (docs/product/relevance.md). */
export interface McpRelevanceReader {
  /**
   * Each item's highest level among the tenants the caller may see (of `among`, a tool's `tenants`, when given), with
   * the tenant's name and the reason: one query for all the items of an answer. Items with none are absent.
   */
  highestOf(itemIds: readonly number[], among: readonly number[] | undefined): Promise<Map<number, McpRelevance>>;
  /** An item's relevance to each tenant the caller may see, most relevant first (the item dialog's list). */
  ofItem(itemId: number): Promise<TenantRelevance[]>;
}

/**
 * The relevance reads of one MCP server instance, through the relevance feature's own repository: the list's page map
 * and the dialog's rows, so an agent reads exactly what the dashboard shows. Null without an identity (stdio, which
 * sees as a guest): a reason tells a tenant's usage, which is the tenant's own business.
 */
export function mcpRelevanceReader(db: Db, scope: TenantScope | undefined): McpRelevanceReader | null {
  if (scope === undefined) return null;
  const repo = createRelevanceRepo(db);
  // Tenant names, read once per server instance (per request over HTTP) and only when an answer has relevance.
  let names: Promise<Map<number, string>> | null = null;
  const tenantNames = () =>
    (names ??= createTenantsRepo(db)
      .visible(scope)
      .then((tenants) => new Map(tenants.map((t) => [t.id, t.name]))));
  return {
    async highestOf(itemIds, among) {
      const out = new Map<number, McpRelevance>();
      if (!itemIds.length) return out;
      const highest = await repo.highestOf(itemIds, scope, among);
      if (!highest.size) return out;
      const byId = await tenantNames();
      for (const [itemId, r] of highest) out.set(itemId, { level: r.level, tenant: byId.get(r.tenantId) ?? '', tenantId: r.tenantId, reason: r.reason });
      return out;
    },
    async ofItem(itemId) {
      return (await repo.ofItem(itemId, scope)).map(toTenantRelevance);
    },
  };
}
