import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { items } from '../../db/schema/index.js';
import { roadmapTagsOf } from '../../sources/normalize-roadmap.js';
import type { MessageAttachment } from '@radar/contracts';
import type { LossyRoadmapField, MessageRecord, RoadmapRecord } from '../../sources/types.js';

/** Line breaks do not survive the RSS feed when the JSON had them as \u000b (XML cannot hold it); compare without them. */
const withoutSpacing = (text: string) => text.replace(/\s+/g, '');
const sameButSpacing = (stored: string | null, read: string) => stored !== null && stored !== read && withoutSpacing(stored) === withoutSpacing(read);

type StoredRow = Pick<
  typeof items.$inferSelect,
  | 'externalId'
  | 'title'
  | 'description'
  | 'status'
  | 'products'
  | 'platforms'
  | 'cloudInstances'
  | 'releasePhases'
  | 'moreInfoLink'
  | 'releaseDate'
  | 'previewDate'
>;

const STORED: Record<LossyRoadmapField, (row: StoredRow) => unknown> = {
  description: (r) => r.description ?? '',
  status: (r) => r.status,
  products: (r) => r.products,
  platforms: (r) => r.platforms,
  cloudInstances: (r) => r.cloudInstances,
  releasePhase: (r) => r.releasePhases,
  moreInfoLink: (r) => r.moreInfoLink,
  releaseDate: (r) => r.releaseDate,
  previewDate: (r) => r.previewDate,
};
const LISTS: LossyRoadmapField[] = ['products', 'platforms', 'cloudInstances', 'releasePhase'];

/**
 * Records read from a format that carries less than the v1 JSON feed (the RSS fallback; a v2 answer missing some
 * keys) are completed from the stored rows before they are compared, instead of blanking what the format could not
 * say:
 *  - each field the answer did not carry (`lossy.absent`) keeps its stored value: RSS has a `moreInfoLink` only as a
 *    "More info:" line, whose absence is not proof the link was removed; a v2 item without `releaseRings` says
 *    nothing about its release phases. A tag list rebuilt from the four lists is rebuilt again after;
 *  - with `lossy.spacing` (RSS), a title or description that differs from the stored one only in whitespace keeps
 *    the stored text (XML dropped the \u000b soft breaks the JSON had).
 * So switching feeds and back writes no history and mails nobody for what is only a format difference. An item seen
 * for the first time keeps what the answer said.
 */
export async function reconcileLossyRecords(tx: DbOrTx, records: RoadmapRecord[]): Promise<RoadmapRecord[]> {
  if (!records.some((r) => r.lossy)) return records;
  const stored = await tx
    .select({
      externalId: items.externalId,
      title: items.title,
      description: items.description,
      status: items.status,
      products: items.products,
      platforms: items.platforms,
      cloudInstances: items.cloudInstances,
      releasePhases: items.releasePhases,
      moreInfoLink: items.moreInfoLink,
      releaseDate: items.releaseDate,
      previewDate: items.previewDate,
    })
    .from(items)
    .where(eq(items.source, 'roadmap'));
  const byId = new Map(stored.map((s) => [s.externalId, s]));
  return records.map((record) => {
    const before = record.lossy ? byId.get(String(record.itemId)) : undefined;
    if (!before || !record.lossy) return record;
    const kept: RoadmapRecord = { ...record };
    for (const field of record.lossy.absent) Object.assign(kept, { [field]: STORED[field](before) });
    if (record.lossy.absent.some((f) => LISTS.includes(f))) kept.tags = roadmapTagsOf(kept);
    if (record.lossy.spacing) {
      if (sameButSpacing(before.title, record.title)) kept.title = before.title;
      if (before.description !== null && sameButSpacing(before.description, record.description)) kept.description = before.description;
    }
    return kept;
  });
}

/** Message Center posts whose attachment list could not be read this time keep the stored list. */
export async function reconcileMessageRecords(tx: DbOrTx, records: MessageRecord[]): Promise<MessageRecord[]> {
  const unknown = records.filter((r) => r.attachmentsUnknown).map((r) => r.messageId);
  if (unknown.length === 0) return records;
  const stored = await tx
    .select({ externalId: items.externalId, attachments: items.attachments })
    .from(items)
    .where(and(eq(items.source, 'messages'), inArray(items.externalId, unknown)));
  const byId = new Map(stored.map((s) => [s.externalId, s.attachments as MessageAttachment[]]));
  return records.map((r) => (r.attachmentsUnknown ? { ...r, attachments: byId.get(r.messageId) ?? [] } : r));
}
