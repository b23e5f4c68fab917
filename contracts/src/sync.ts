import { z } from './zod.js';
import { HISTORY_CHANGE_TYPES, MAX_PAGE_SIZE, PAGE_SIZE, SOURCES } from './constants.js';
import { changeHistoryEntry, unifiedItem } from './items.js';

/** GET /api/roadmap/items/{itemId}/history and GET /api/message-center/items/{messageId}/history: newest first. */
export const itemHistoryResponse = z.array(changeHistoryEntry);
export type ItemHistoryResponse = z.infer<typeof itemHistoryResponse>;

/** GET /api/admin/change-history: newest first, paged. */
export const changeHistoryQuery = z.object({
  page: z.coerce.number().int().min(1, 'page must be 1 or more').default(1),
  limit: z.coerce.number().int().min(1, 'limit must be 1 or more').max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`).default(PAGE_SIZE),
  source: z.enum(SOURCES).optional(),
  changeType: z.enum(HISTORY_CHANGE_TYPES).optional(),
});
export type ChangeHistoryQuery = z.input<typeof changeHistoryQuery>;
export const changeHistoryListResponse = z.object({
  changeHistory: z.array(changeHistoryEntry),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type ChangeHistoryListResponse = z.infer<typeof changeHistoryListResponse>;

/** GET /api/roadmap/items/{itemId}/linked-messages and GET /api/message-center/items/{messageId}/linked-roadmap. */
export const linkedItemsResponse = z.array(unifiedItem);
export type LinkedItemsResponse = z.infer<typeof linkedItemsResponse>;

export const roadmapItemIdParams = z.object({
  itemId: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, 'itemId must be a roadmap id (digits)'),
});
export type RoadmapItemIdParams = z.infer<typeof roadmapItemIdParams>;
export const messageIdParams = z.object({
  messageId: z
    .string()
    .trim()
    .regex(/^MC\d{1,9}$/i, 'messageId must look like MC1234567'),
});
export type MessageIdParams = z.infer<typeof messageIdParams>;
export const messageAttachmentParams = messageIdParams.extend({
  attachmentId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:=+/-]{1,200}$/, 'attachmentId must be an attachment id'),
});
export type MessageAttachmentParams = z.infer<typeof messageAttachmentParams>;
