import { canonicalRoadmapDate } from '@radar/contracts';
import type { RawRoadmapItem } from './raw-schemas.js';
import { FeedFormatError } from './errors.js';
import type { RoadmapRecord } from './types.js';
import { productCanonicalizer } from './products.js';
import { cleanLine, cleanOptionalLine, cleanRich, parseUtc, uniqueList } from './text.js';

type TagList = { tagName: string }[] | null | undefined;
const tagNames = (list: TagList): string[] => uniqueList((list ?? []).map((t) => cleanLine(t.tagName)));

/** The roadmap's flat tag list: the union of its four lists, as the v1 feed's `tags` is. */
export const roadmapTagsOf = (r: Pick<RoadmapRecord, 'cloudInstances' | 'platforms' | 'products' | 'releasePhase'>): string[] =>
  uniqueList([...r.cloudInstances, ...r.platforms, ...r.products, ...r.releasePhase]);

/**
 * One raw v1 item → our record. `canonicalProduct` folds case variants of product names; pass the one built
 * for the whole snapshot (see normalizeRoadmapFeed) so every item gets the same spelling.
 */
export function normalizeRoadmapItem(raw: RawRoadmapItem, canonicalProduct: (name: string) => string = (n) => n): RoadmapRecord {
  const itemId = Number(raw.id);
  const createdDate = parseUtc(raw.created);
  if (!createdDate) throw new FeedFormatError(`roadmap item ${itemId}: unreadable created date "${raw.created}"`);
  // `modified` equals `created` on new items; a missing or broken one must not fail the sync.
  const modifiedDate = parseUtc(raw.modified) ?? createdDate;

  const container = raw.tagsContainer ?? {};
  const products = uniqueList(tagNames(container.products).map(canonicalProduct));
  const cloudInstances = tagNames(container.cloudInstances);
  const platforms = tagNames(container.platforms);
  const releasePhase = tagNames(container.releasePhase);
  // `tags` is the union of the four lists in the feed; rebuilding it when it is missing keeps search working.
  const rawTags = raw.tags ? tagNames(raw.tags) : roadmapTagsOf({ cloudInstances, platforms, products, releasePhase });
  const tags = uniqueList(rawTags.map((t) => (products.some((p) => p.toLowerCase() === t.toLowerCase()) ? canonicalProduct(t) : t)));

  return {
    itemId,
    title: cleanLine(raw.title),
    description: cleanRich(raw.description),
    moreInfoLink: cleanOptionalLine(raw.moreInfoLink),
    // One spelling per month whatever the feed ("2026-02" from v2 is "February CY2026").
    releaseDate: canonicalRoadmapDate(cleanOptionalLine(raw.publicDisclosureAvailabilityDate)),
    previewDate: canonicalRoadmapDate(cleanOptionalLine(raw.publicPreviewDate)),
    status: cleanOptionalLine(raw.status),
    products,
    cloudInstances,
    platforms,
    releasePhase,
    tags,
    createdDate,
    modifiedDate,
  };
}

/** A whole snapshot → records. Duplicate ids are refused: two versions of one item cannot both be true. */
export function normalizeRoadmapFeed(raw: RawRoadmapItem[], originals?: unknown[]): RoadmapRecord[] {
  const allProducts = raw.flatMap((item) => tagNames(item.tagsContainer?.products));
  const canonical = productCanonicalizer(allProducts);
  const seen = new Set<number>();
  return raw.map((item, i) => {
    const record = normalizeRoadmapItem(item, canonical);
    record.raw = originals?.[i] ?? item;
    if (seen.has(record.itemId)) throw new FeedFormatError(`roadmap feed lists item ${record.itemId} twice`);
    seen.add(record.itemId);
    return record;
  });
}
