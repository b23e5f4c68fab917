import { z } from './zod.js';
import { SOURCES } from './constants.js';
import { unifiedItem } from './items.js';

/** GET /api/weekly-digest: the past 7 days. */
export const weeklyDigestResponse = z.object({
  weekRange: z.object({
    start: z.string(),
    end: z.string(),
    startFormatted: z.string(),
    endFormatted: z.string(),
    nextUpdateFormatted: z.string(),
  }),
  roadmap: z.object({ newItems: z.array(unifiedItem), changedItems: z.array(unifiedItem) }),
  messageCenter: z.object({ newItems: z.array(unifiedItem), updatedItems: z.array(unifiedItem) }),
  /** Service Health incidents that started or were updated in the week (of public tenants). */
  serviceHealth: z.object({ incidents: z.array(unifiedItem) }).optional(),
});
export type WeeklyDigestResponse = z.infer<typeof weeklyDigestResponse>;

/** One row of an admin digest report: what the tables and the summary read, plus a link back to the item. */
export const digestReportItem = z.object({
  source: z.enum(SOURCES),
  itemId: z.string().nullable(),
  messageId: z.string().nullable(),
  title: z.string(),
  /** Roadmap products, or the services a Message Center post affects. */
  products: z.array(z.string()),
  status: z.string().nullable(),
  tags: z.array(z.string()),
  isMajorChange: z.boolean(),
  userImpact: z.boolean(),
  adminImpact: z.boolean(),
  actionRequiredByDate: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
  publishedDate: z.string().nullable(),
  lastUpdatedDate: z.string().nullable(),
  /** Plain text, shortened. */
  summary: z.string(),
  /** The item's dashboard deep link (absolute), so a summary can link every item. */
  link: z.string(),
});
export type DigestReportItem = z.infer<typeof digestReportItem>;

/** How many items a source had in the window, and how many the report holds (at most DIGEST_REPORT_LIMIT). */
export const digestReportCoverage = z.object({ total: z.number().int(), included: z.number().int() });
export type DigestReportCoverage = z.infer<typeof digestReportCoverage>;

/**
 * The admin digest report (generatedAt, timeframe, roadmap and messageCenter lists), built from
 * GET /api/roadmap/items and GET /api/message-center/items and sent as `reportData` to POST /api/admin/generate-summary.
 */
export const digestReport = z.object({
  generatedAt: z.string(),
  timeframe: z.union([z.literal(1), z.literal(7), z.literal(30)]),
  roadmap: z.object({ newItems: z.array(digestReportItem), changedItems: z.array(digestReportItem), coverage: digestReportCoverage }),
  messageCenter: z.object({ newItems: z.array(digestReportItem), updatedItems: z.array(digestReportItem), coverage: digestReportCoverage }),
});
export type DigestReport = z.infer<typeof digestReport>;
export type DigestTimeframe = DigestReport['timeframe'];
