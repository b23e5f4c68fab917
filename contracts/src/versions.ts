import { z } from './zod.js';
import { HISTORY_CHANGE_TYPES } from './constants.js';

/**
 * Versions of an item, rebuilt on the server from its change history (docs/ingestion.md, "Versions"): version 1 is
 * the item as first seen, and every later history entry (a change, a removal, a return) makes the next version.
 */
export const itemVersion = z.object({
  version: z.number().int().min(1),
  /** When the sync that recorded this version ran. */
  changeDate: z.string(),
  changeType: z.enum(HISTORY_CHANGE_TYPES),
  /** The fields this version changed (empty for version 1). */
  changedFields: z.array(z.string()),
  /** Only whitespace, punctuation or letter case changed. */
  minor: z.boolean(),
});
export type ItemVersion = z.infer<typeof itemVersion>;

/** GET /api/roadmap/items/{itemId}/versions and GET /api/message-center/items/{messageId}/versions: newest first. */
export const itemVersionsResponse = z.array(itemVersion);
export type ItemVersionsResponse = z.infer<typeof itemVersionsResponse>;

const versionNumber = (name: 'from' | 'to') =>
  z.coerce
    .number({ error: `${name} must be a version number` })
    .int(`${name} must be a whole version number`)
    .min(1, `${name} must be 1 or more`)
    .optional();

/** `from` and `to` default to the last two versions (the only version twice for an item never changed). */
export const compareVersionsQuery = z.object({ from: versionNumber('from'), to: versionNumber('to') });
export type CompareVersionsQuery = z.input<typeof compareVersionsQuery>;

export const wordDiffPart = z.object({
  type: z.enum(['equal', 'insert', 'delete']),
  text: z.string(),
});
export type WordDiffPart = z.infer<typeof wordDiffPart>;

/**
 * Word-level diff of the roadmap description or the Message Center body between the two versions. HTML is
 * sanitised and reduced to its text (paragraphs and list items kept as line breaks) before it is compared, so the
 * parts are plain text: render them as text, never as HTML.
 */
export const wordDiff = z.object({
  field: z.enum(['description', 'bodyContent']),
  parts: z.array(wordDiffPart),
  /**
   * True when the texts differ too much to diff word by word within the bound the server keeps (the cost grows with
   * the square of the edits): the whole old text is shown deleted and the new one inserted.
   */
  gaveUp: z.boolean().optional(),
});
export type WordDiff = z.infer<typeof wordDiff>;

export const compareVersionsResponse = z.object({
  from: itemVersion,
  to: itemVersion,
  /** Every tracked field whose value differs between the versions, in the field order of the history. */
  fields: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  /** Null when the description / body is the same in both versions. */
  wordDiff: wordDiff.nullable(),
});
export type CompareVersionsResponse = z.infer<typeof compareVersionsResponse>;

/**
 * POST /api/dashboard/visit: records that the signed-in user looks at the dashboard (written at most every few
 * minutes) and answers the previous visit, which is what "since your last visit" counts from.
 */
export const dashboardVisitResponse = z.object({
  /** The previous visit; null on the first one. */
  lastVisitAt: z.string().nullable(),
  /** Items new or changed since then (what `sinceLastVisit=true` lists with no other filter). */
  changesSinceLastVisit: z.number().int(),
});
export type DashboardVisitResponse = z.infer<typeof dashboardVisitResponse>;
