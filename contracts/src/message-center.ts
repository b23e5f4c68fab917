import { ROLLOUT_RINGS } from './rollout.js';
import { z } from './zod.js';

/**
 * What a Message Center post says beyond its fields: the fixed sections of its body and the rollout timing its
 * schedule section names (api/src/sources/message-sections.ts and rollout-timing.ts say how they are read).
 */

/** One window: `label` is Microsoft's phrase ("mid-September 2026"); `start`/`end` the days it means (YYYY-MM-DD). */
export const timingWindow = z.object({
  ring: z.enum(ROLLOUT_RINGS),
  label: z.string(),
  start: z.string().regex(/^\d{4}-\d\d-\d\d$/),
  end: z.string().regex(/^\d{4}-\d\d-\d\d$/),
});
export type TimingWindow = z.infer<typeof timingWindow>;

export const SECTION_KINDS = ['introduction', 'whatAndWhy', 'rollout', 'impact', 'action', 'compliance', 'more'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

/** A section of a post's body: its heading as written ('' for the text before the first heading) and sanitised HTML. */
export const messageSection = z.object({
  title: z.string(),
  /** What the heading means whatever its wording (both generations of headings); null for the untitled opening. */
  kind: z.enum(SECTION_KINDS).nullable(),
  html: z.string(),
});
export type MessageSection = z.infer<typeof messageSection>;

export const featureStatusEntry = z.object({
  roadmapId: z.string().nullable(),
  platform: z.string(),
  /** As Graph writes it (Scheduled, InRollout, Launched, FeatureRolloutStatusNotSupported, …). */
  status: z.string(),
  /** Words for people ("Rolling out"). */
  label: z.string(),
});
export type FeatureStatusEntry = z.infer<typeof featureStatusEntry>;

/** Largest attachment the product keeps and serves (a bigger one is listed, with the reason it cannot be downloaded). */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;

/** An attachment of a post, as Graph lists it (`/messages/{id}/attachments`). */
export const messageAttachment = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
  lastModified: z.string().nullable(),
});
export type MessageAttachment = z.infer<typeof messageAttachment>;

/** On the post's API: where to download it, or why it cannot be (not fetched yet, too large, refused by Graph). */
export const messageAttachmentFile = messageAttachment.extend({
  downloadUrl: z.string().nullable(),
  unavailableReason: z.string().nullable(),
});
export type MessageAttachmentFile = z.infer<typeof messageAttachmentFile>;
