import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { items } from '../db/schema.js';
import type { RoadmapRecord } from '../sources/types.js';

/** Line breaks do not survive the RSS feed when the JSON had them as \u000b (XML cannot hold it); compare without them. */
const withoutSpacing = (text: string) => text.replace(/\s+/g, '');
const sameButSpacing = (stored: string | null, fromRss: string) => stored !== null && stored !== fromRss && withoutSpacing(stored) === withoutSpacing(fromRss);

/**
 * Records read from the RSS fallback carry less than the JSON feed's. Before they are compared with the stored
 * items, what RSS could not say is taken from the stored row instead of being blanked:
 *  - `moreInfoLink` when the RSS item has no "More info:" line (the RSS lists one for every item that has one, but
 *    its absence is not proof the link was removed);
 *  - the title and description when they differ from the stored ones only in whitespace (XML dropped the \u000b
 *    soft breaks the JSON had, which our cleaning turns into spaces and line breaks).
 * So switching to RSS and back writes no history and mails nobody for what is only a format difference.
 */
export async function reconcileRssRecords(tx: DbOrTx, records: RoadmapRecord[]): Promise<RoadmapRecord[]> {
  if (!records.some((r) => r.rss)) return records;
  const stored = await tx
    .select({ externalId: items.externalId, moreInfoLink: items.moreInfoLink, title: items.title, description: items.description })
    .from(items)
    .where(eq(items.source, 'roadmap'));
  const byId = new Map(stored.map((s) => [s.externalId, s]));
  return records.map((record) => {
    const before = record.rss ? byId.get(String(record.itemId)) : undefined;
    if (!before) return record;
    const kept = { ...record };
    if (!record.rss!.hasMoreInfoLink) kept.moreInfoLink = before.moreInfoLink;
    if (sameButSpacing(before.title, record.title)) kept.title = before.title;
    if (sameButSpacing(before.description, record.description)) kept.description = before.description!;
    return kept;
  });
}
