import { z } from './zod.js';
import { unifiedItem } from './items.js';

export { HEALTH_STATUS_LABELS, healthStatusLabel } from './health-status.js';

/**
 * Service Health: the incidents and advisories Microsoft publishes per tenant (Graph `serviceAnnouncement/issues`),
 * kept for good beside the roadmap and Message Center as the list's third source (`health`).
 */

/** One update of an issue as Microsoft posted it, oldest first on the API. */
export const healthPost = z.object({
  postedAt: z.string(),
  /** Graph `postType`: regular | quick | strategic. */
  postType: z.string().nullable(),
  /** Sanitised HTML (Graph sends HTML or text). */
  html: z.string(),
});
export type HealthPost = z.infer<typeof healthPost>;

/** A status the issue held, from its change history (the first is what it had when first seen). */
export const healthStatusStep = z.object({ status: z.string(), label: z.string(), at: z.string() });
export type HealthStatusStep = z.infer<typeof healthStatusStep>;

export const healthIssueParams = z.object({
  issueId: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{1,6}\d{1,10}$/, 'issueId must look like EX123456'),
});
export type HealthIssueParams = z.infer<typeof healthIssueParams>;

/**
 * GET /api/service-health/issues/{issueId}: the issue with every post in order, the statuses it went through, the
 * post-incident report when Microsoft published one, the tenants that saw it (those the caller may see), and related
 * Message Center posts and roadmap items of the same service around the same weeks.
 */
export const healthIssueResponse = unifiedItem.extend({
  classification: z.string().nullable(),
  feature: z.string().nullable(),
  featureGroup: z.string().nullable(),
  /** Graph `origin`: microsoft | thirdParty | customer. */
  origin: z.string().nullable(),
  statusLabel: z.string(),
  posts: z.array(healthPost),
  statusTimeline: z.array(healthStatusStep),
  /** Where to download the post-incident report; null when none was published (or not fetched yet). */
  report: z.object({ downloadUrl: z.string(), contentType: z.string().nullable(), size: z.number().int(), fetchedAt: z.string() }).nullable(),
  tenants: z.array(z.object({ id: z.number().int(), name: z.string(), firstSeen: z.string(), lastModified: z.string().nullable(), expired: z.boolean() })),
  related: z.array(unifiedItem),
});
export type HealthIssueResponse = z.infer<typeof healthIssueResponse>;
