import { USAGE_WORKLOADS, type TenantRelevance, type UsageWorkload } from '@radar/contracts';
import { relevanceLevelOf } from '../../db/schema/index.js';
import type { TenantRelevanceRow } from './relevance.repo.js';

const isWorkload = (w: string | null): w is UsageWorkload => w !== null && (USAGE_WORKLOADS as readonly string[]).includes(w);

/** One tenant's stored row as the item dialog and the MCP get_item tool give it. */
export function toTenantRelevance(row: TenantRelevanceRow): TenantRelevance {
  return {
    level: relevanceLevelOf(row.level),
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    reason: row.reason,
    workload: isWorkload(row.workload) ? row.workload : null,
    activeUsers: row.activeUsers,
    share: row.share,
    computedAt: row.computedAt.toISOString(),
  };
}
