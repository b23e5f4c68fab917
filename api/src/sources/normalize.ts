/**
 * Raw feed → our records. Both feeds are validated with zod first (raw-schemas.ts) so a malformed payload is refused
 * as a whole; normalisation then handles every quirk listed in docs/ingestion.md ("Quirks handled").
 */
import { FeedFormatError } from './errors.js';
import { describeIssues, rawGraphMessages, rawRoadmapFeed } from './raw-schemas.js';
import { normalizeMessages } from './normalize-message.js';
import { normalizeRoadmapFeed } from './normalize-roadmap.js';
import type { MessageRecord, RoadmapRecord } from './types.js';

export { normalizeRoadmapItem, normalizeRoadmapFeed } from './normalize-roadmap.js';
export { normalizeMessage, normalizeMessages, parseRoadmapIdList, roadmapIdsFromBody, normalizeFeatureStatus } from './normalize-message.js';

/** Parses text as JSON; a UTF-8 BOM (the RSS has one, some dumps too) is not a reason to fail. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (err) {
    throw new FeedFormatError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

/** A whole roadmap payload (already parsed JSON) → records, or FeedFormatError. */
export function roadmapRecordsFromPayload(payload: unknown): RoadmapRecord[] {
  const parsed = rawRoadmapFeed.safeParse(payload);
  if (!parsed.success) throw new FeedFormatError(`roadmap feed refused: ${describeIssues(parsed.error)}`);
  return normalizeRoadmapFeed(parsed.data, payload as unknown[]);
}

/**
 * Message Center payload → records. Accepts the concatenated array (recorded files) or one Graph page object
 * (`{ value: [...] }`), so recorded Graph responses can be imported as they are.
 */
export function messageRecordsFromPayload(payload: unknown): MessageRecord[] {
  const list = payload && typeof payload === 'object' && !Array.isArray(payload) && 'value' in payload ? (payload as { value: unknown }).value : payload;
  const parsed = rawGraphMessages.safeParse(list);
  if (!parsed.success) throw new FeedFormatError(`Message Center payload refused: ${describeIssues(parsed.error)}`);
  return normalizeMessages(parsed.data, list as unknown[]);
}
