import { z } from 'zod';
import { unifiedItem } from './items.js';

/** GET /api/weekly-digest: the past 7 days (spec 02 §3). */
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
});
export type WeeklyDigestResponse = z.infer<typeof weeklyDigestResponse>;
