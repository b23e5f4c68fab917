/**
 * Relevance on the wire: what the list, the item dialog, the export, the feeds and MCP say of an item's relevance to
 * the tenants the caller may see (docs/product/relevance.md). Signed-in callers only: a reason names a tenant's usage
 * ("1,240 people used Teams in the last 30 days"), which is the tenant's own business, so guests never get it.
 */
import { isoDate, stringList } from './common.js';
import { RELEVANCE_LEVELS, type RelevanceLevel } from './relevance.js';
import { USAGE_WORKLOADS } from './usage-workloads.js';
import { z } from './zod.js';

/** A level as people read it: the list's chip, the export's Relevance column, the feeds' entries. */
export const RELEVANCE_LEVEL_LABELS: Readonly<Record<RelevanceLevel, string>> = { high: 'High', medium: 'Medium', low: 'Low', unknown: 'Unknown' };

/**
 * A level's reason as the export and the feeds write it: after the tenant's name ("Contoso: 1,240 people used Teams
 * …") when the reader sees several tenants, so the line says whose usage it is; the reason alone otherwise.
 */
export function relevanceReasonText(reason: string, tenantName: string | null | undefined): string {
  return tenantName ? `${tenantName}: ${reason}` : reason;
}

export const relevanceLevel = z.enum(RELEVANCE_LEVELS, { error: `relevance must be one of ${RELEVANCE_LEVELS.join(', ')}` });
export type RelevanceLevelValue = z.infer<typeof relevanceLevel>;

/** `relevance=high` or `relevance=high,medium`: items whose relevance to one of the caller's tenants is one of these. */
export const relevanceFilter = stringList.pipe(z.array(relevanceLevel).min(1, 'relevance must name at least one level'));
export type RelevanceFilter = z.infer<typeof relevanceFilter>;

/** One tenant's relevance of an item, as a list row shows it: the highest among the tenants in scope. */
export const listRelevance = z.object({
  level: relevanceLevel,
  /** The tenant the level is of (the first by name among equals). */
  tenantId: z.number().int(),
  /** The level in words ("1,240 people used Teams in the last 30 days, 82 % of licensed users"). */
  reason: z.string(),
});
export type ListRelevance = z.infer<typeof listRelevance>;

/** One tenant's relevance of an item, as the dialog shows it. */
export const tenantRelevance = listRelevance.extend({
  tenantName: z.string(),
  /** The workload the level was read from; null when none (not licensed, not mapped, not read). */
  workload: z.enum(USAGE_WORKLOADS).nullable(),
  activeUsers: z.number().int().nonnegative().nullable(),
  /** Active share of the licensed users (0…1, above 1 when more used it than are licensed); null when unknown. */
  share: z.number().nonnegative().nullable(),
  /** When it was last computed (after the tenant's usage or licences were read, or the item changed). */
  computedAt: isoDate,
});
export type TenantRelevance = z.infer<typeof tenantRelevance>;

/** GET /api/relevance/{itemType}/{itemId} (the item named as triage names it): per tenant the caller may see, most relevant first. */
export const itemRelevanceResponse = z.object({ tenants: z.array(tenantRelevance) });
export type ItemRelevanceResponse = z.infer<typeof itemRelevanceResponse>;
