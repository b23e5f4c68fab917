import { z } from 'zod';

/**
 * The raw shapes of the two feeds (docs/ingestion.md, "Quirks handled"), checked before anything is stored. They are strict
 * about what identity and change detection need (id, title, timestamps) and lenient about the rest, so a new
 * optional field from Microsoft does not stop the sync while a truncated or wrong payload does.
 */

const tag = z.object({ tagName: z.string() });
const tagList = z.array(tag).nullish();

/** A roadmap id is a number in the feed; a numeric string is accepted because older dumps wrote strings. */
export const roadmapId = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]);

export const rawRoadmapItem = z.object({
  id: roadmapId,
  title: z.string(),
  description: z.string().nullish(),
  moreInfoLink: z.string().nullish(),
  publicDisclosureAvailabilityDate: z.string().nullish(),
  publicPreviewDate: z.string().nullish(),
  created: z.string(),
  modified: z.string().nullish(),
  publicRoadmapStatus: z.string().nullish(),
  status: z.string().nullish(),
  locale: z.string().nullish(),
  tags: tagList,
  tagsContainer: z.object({ products: tagList, cloudInstances: tagList, releasePhase: tagList, platforms: tagList }).nullish(),
});
export type RawRoadmapItem = z.infer<typeof rawRoadmapItem>;

/** The v1 feed is one bare array holding every item. */
export const rawRoadmapFeed = z.array(rawRoadmapItem);

export const rawGraphMessage = z.object({
  id: z.string().min(1),
  title: z.string(),
  startDateTime: z.string().nullish(),
  endDateTime: z.string().nullish(),
  lastModifiedDateTime: z.string().nullish(),
  category: z.string().nullish(),
  severity: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  isMajorChange: z.boolean().nullish(),
  actionRequiredByDateTime: z.string().nullish(),
  services: z.array(z.string()).nullish(),
  hasAttachments: z.boolean().nullish(),
  details: z.array(z.object({ name: z.string(), value: z.string().nullish() })).nullish(),
  body: z.object({ contentType: z.string().nullish(), content: z.string().nullish() }).nullish(),
});
export type RawGraphMessage = z.infer<typeof rawGraphMessage>;

/** GET /admin/serviceAnnouncement/messages/{id}/attachments (the content stream is not part of the list). */
export const rawAttachmentList = z.object({
  value: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string().nullish(),
      contentType: z.string().nullish(),
      size: z.number().int().nonnegative().nullish(),
      lastModifiedDateTime: z.string().nullish(),
    }),
  ),
});

/** One page of GET /admin/serviceAnnouncement/messages. */
export const rawGraphPage = z.object({
  value: z.array(rawGraphMessage),
  '@odata.nextLink': z.string().url().nullish(),
});

/** Recorded Message Center files (and the apollomsp/mc archive) hold the pages' `value` arrays concatenated. */
export const rawGraphMessages = z.array(rawGraphMessage);

/**
 * A Service Health issue (Graph serviceHealthIssue): strict about what identity and change detection need (id, title,
 * status, dates), lenient about the rest.
 */
export const rawHealthIssue = z.object({
  id: z.string().min(1),
  title: z.string(),
  impactDescription: z.string().nullish(),
  classification: z.string().nullish(),
  origin: z.string().nullish(),
  status: z.string().nullish(),
  service: z.string().nullish(),
  feature: z.string().nullish(),
  featureGroup: z.string().nullish(),
  isResolved: z.boolean().nullish(),
  highImpact: z.boolean().nullish(),
  startDateTime: z.string().nullish(),
  endDateTime: z.string().nullish(),
  lastModifiedDateTime: z.string().nullish(),
  details: z.array(z.object({ name: z.string(), value: z.string().nullish() })).nullish(),
  posts: z
    .array(
      z.object({
        createdDateTime: z.string(),
        postType: z.string().nullish(),
        description: z.object({ contentType: z.string().nullish(), content: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
});
export type RawHealthIssue = z.infer<typeof rawHealthIssue>;

/** One page of GET /admin/serviceAnnouncement/issues. */
export const rawHealthPage = z.object({
  value: z.array(rawHealthIssue),
  '@odata.nextLink': z.string().url().nullish(),
});

/** GET /admin/serviceAnnouncement/healthOverviews: each service's health now. */
export const rawHealthOverviews = z.object({
  value: z.array(z.object({ service: z.string().min(1), status: z.string().min(1), id: z.string().nullish() })),
  '@odata.nextLink': z.string().url().nullish(),
});

/** GET /subscribedSkus: the tenant's subscriptions and the service plans each one carries. */
export const rawSubscribedSkus = z.object({
  value: z.array(
    z.object({
      skuPartNumber: z.string().nullish(),
      capabilityStatus: z.string().nullish(),
      servicePlans: z
        .array(z.object({ servicePlanName: z.string().min(1), provisioningStatus: z.string().nullish(), appliesTo: z.string().nullish() }))
        .default([]),
    }),
  ),
  '@odata.nextLink': z.string().url().nullish(),
});

export const tokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().default(3599),
  token_type: z.string().optional(),
});

/** Turns a zod error into one readable line naming the first few bad paths. */
export function describeIssues(error: z.ZodError, limit = 5): string {
  const parts = error.issues.slice(0, limit).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const more = error.issues.length > limit ? ` (+${error.issues.length - limit} more)` : '';
  return parts.join('; ') + more;
}
