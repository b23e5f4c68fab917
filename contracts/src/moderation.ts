import { z } from './zod.js';
import { ACTIVITY_ITEM_TYPES, ACTIVITY_PAGE_SIZE, ITEM_TYPES, MODERATOR_ACTION_TYPES } from './constants.js';
import { thirdPartyLink, unifiedItem } from './items.js';

/** PUT /api/moderator/roadmap/{itemId} and PUT /api/moderator/message/{messageId}. */
export const moderationUpdate = z.object({
  isFeatured: z.boolean({ error: 'isFeatured must be true or false' }),
  thirdPartyLinks: z.array(thirdPartyLink).max(50, 'at most 50 third-party links'),
  moderatorNotes: z.string().max(10_000, 'moderatorNotes must be at most 10000 characters').default(''),
});
export type ModerationUpdate = z.infer<typeof moderationUpdate>;

/** The largest `details` of a posted activity record, as JSON text. */
export const ACTIVITY_DETAILS_MAX_CHARS = 2000;
/** Note text kept in an activity's details, by the server's audit and the client's record (the whole note stays on the item). */
export const ACTIVITY_NOTE_CHARS = 500;

/** POST /api/moderator-activity. userId and userEmail are taken from the session, not trusted from the body. */
export const moderatorActivityRequest = z.object({
  userId: z.union([z.string(), z.number()]).optional(),
  userEmail: z.string().optional(),
  actionType: z.enum(MODERATOR_ACTION_TYPES),
  itemType: z.enum(ITEM_TYPES),
  itemId: z.string().trim().min(1, 'itemId is required').max(50, 'itemId is too long'),
  itemTitle: z.string().max(1000).default(''),
  details: z
    .unknown()
    .optional()
    .refine(
      (details) => details === undefined || JSON.stringify(details).length <= ACTIVITY_DETAILS_MAX_CHARS,
      `details must be at most ${ACTIVITY_DETAILS_MAX_CHARS} characters as JSON`,
    ),
});
export type ModeratorActivityRequest = z.input<typeof moderatorActivityRequest>;

export const moderatorActivity = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  userEmail: z.string(),
  actionType: z.enum(MODERATOR_ACTION_TYPES),
  itemType: z.enum(ACTIVITY_ITEM_TYPES),
  itemId: z.string(),
  itemTitle: z.string(),
  details: z.unknown().nullable(),
  timestamp: z.string(),
});
export type ModeratorActivity = z.infer<typeof moderatorActivity>;

export const moderatorActivitiesResponse = z.object({
  activities: z.array(moderatorActivity),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
});

export const moderatorActivityStats = z.object({
  totalActivities: z.number().int(),
  featuredItems: z.number().int(),
  linksAdded: z.number().int(),
  notesAdded: z.number().int(),
  recentActivity: z.number().int(),
});
export type ModeratorActivityStats = z.infer<typeof moderatorActivityStats>;

/** Route params of the moderation PUTs: any provider id (demo and real ids alike). */
export const moderatedRoadmapParams = z.object({ itemId: z.string().trim().min(1, 'itemId is required').max(50, 'itemId is too long') });
export type ModeratedRoadmapParams = z.infer<typeof moderatedRoadmapParams>;
export const moderatedMessageParams = z.object({ messageId: z.string().trim().min(1, 'messageId is required').max(50, 'messageId is too long') });
export type ModeratedMessageParams = z.infer<typeof moderatedMessageParams>;

/** The answer of a moderation save: the item as stored now, so the dialog shows what the server kept. */
export const moderationSaveResponse = z.object({ success: z.boolean(), message: z.string(), item: unifiedItem });
export type ModerationSaveResponse = z.infer<typeof moderationSaveResponse>;
export type ModeratorActivitiesResponse = z.infer<typeof moderatorActivitiesResponse>;

/** GET /api/admin/moderator-activities (20 a page). */
export const moderatorActivitiesQuery = z.object({
  page: z.coerce.number().int('page must be a whole number').min(1, 'page must be 1 or more').default(1),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be 1 or more')
    .max(100, 'limit must be at most 100')
    .default(ACTIVITY_PAGE_SIZE),
});
export type ModeratorActivitiesQuery = z.input<typeof moderatorActivitiesQuery>;
