import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { FeedFormatError } from './errors.js';
import { normalizeRoadmapFeed } from './normalize-roadmap.js';
import type { RawRoadmapItem } from './raw-schemas.js';
import { describeIssues } from './raw-schemas.js';
import { classifyCategories, roadmapVocabulary, type RoadmapVocabulary } from './roadmap-vocabulary.js';
import { driftOfItems, RSS_ITEM_FIELDS, type SchemaDrift } from './schema-drift.js';
import type { RoadmapRecord } from './types.js';

/**
 * The official roadmap RSS feed (`api/v2/M365/rss`) → the same records as the v1 JSON feed. It is the
 * fallback when the JSON endpoint refuses us or sends something broken. Each <item> carries:
 *   guid = id, title, category* (status, phases, clouds, products, platforms: see roadmap-vocabulary.ts),
 *   description = the v1 description + "<br>More info: URL" (when the item has one) + "<br>GA date: Month CYyyyy"
 *                 [+ "<br>Preview date: …"], entity-escaped,
 *   pubDate = created ("Fri, 30 Jan 2026 23:15:49 Z": RFC-822 with a literal Z), a10:updated = modified.
 */

const textNode = z.union([
  z.string(),
  z.number().transform(String),
  z.object({ '#text': z.union([z.string(), z.number().transform(String)]) }).transform((o) => o['#text']),
]);

const rssItem = z.object({
  guid: textNode.pipe(z.string().trim().regex(/^\d+$/, 'guid must be a roadmap id')),
  title: textNode,
  description: textNode.optional(),
  category: z.array(textNode).default([]),
  pubDate: textNode,
  'a10:updated': textNode.optional(),
});
type RssItem = z.infer<typeof rssItem>;

const rssDocument = z.object({
  rss: z.object({
    channel: z.object({ item: z.array(z.unknown()).default([]) }),
  }),
});

const parser = new XMLParser({
  ignoreAttributes: false,
  // Ids, titles and dates stay strings: "553225" must not become a number, nor a title "2026" one either.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => name === 'item' || name === 'category',
});

/** "Fri, 30 Jan 2026 23:15:49 Z": many RFC-822 parsers refuse the literal Z, so it becomes +0000 first. */
export function parseRssDate(value: string): string | null {
  const date = new Date(value.trim().replace(/\s+Z$/i, ' +0000'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const SUFFIX = /<br\s*\/?>\s*(More info|GA date|Preview date):\s*([^<]*?)\s*$/i;

/** Splits the description's trailing "<br>Label: value" lines off the v1 text. */
export function splitRssDescription(description: string): { text: string; moreInfo: string | null; gaDate: string | null; previewDate: string | null } {
  let text = description;
  const found: Record<string, string> = {};
  for (let m = SUFFIX.exec(text); m; m = SUFFIX.exec(text)) {
    found[(m[1] ?? '').toLowerCase()] = m[2] ?? '';
    text = text.slice(0, m.index);
  }
  return { text, moreInfo: found['more info'] || null, gaDate: found['ga date'] || null, previewDate: found['preview date'] || null };
}

function toRawItem(item: RssItem, vocabulary: RoadmapVocabulary): { raw: RawRoadmapItem; hasMoreInfoLink: boolean } {
  const created = parseRssDate(item.pubDate);
  if (!created) throw new FeedFormatError(`roadmap RSS item ${item.guid}: unreadable pubDate "${item.pubDate}"`);
  const modified = item['a10:updated'] ? (parseRssDate(item['a10:updated']) ?? item['a10:updated']) : created;
  const parts = splitRssDescription(item.description ?? '');
  const tags = classifyCategories(
    item.category.map((c) => c.trim()),
    vocabulary,
  );
  const list = (values: string[]) => values.map((tagName) => ({ tagName }));
  return {
    raw: {
      id: Number(item.guid),
      title: item.title,
      description: parts.text,
      moreInfoLink: parts.moreInfo,
      publicDisclosureAvailabilityDate: parts.gaDate,
      // The JSON feed's own "no date" value.
      publicPreviewDate: parts.previewDate ?? '',
      created,
      modified,
      status: tags.status,
      tagsContainer: {
        products: list(tags.products),
        cloudInstances: list(tags.cloudInstances),
        releasePhase: list(tags.releasePhase),
        platforms: list(tags.platforms),
      },
    },
    hasMoreInfoLink: parts.moreInfo !== null,
  };
}

/**
 * A whole RSS document → records and the schema drift of its items, or FeedFormatError. Not well-formed XML (a
 * truncated download), something that is not an RSS channel (an HTML error page) or an item without a numeric guid
 * refuses the document as a whole.
 */
export function parseRoadmapRss(text: string, vocabulary: RoadmapVocabulary = roadmapVocabulary()): { records: RoadmapRecord[]; drift: SchemaDrift } {
  const xml = text.replace(/^\ufeff/, '');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new FeedFormatError(`roadmap RSS is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const document = rssDocument.safeParse(parser.parse(xml));
  if (!document.success) throw new FeedFormatError(`roadmap RSS refused: not an RSS channel (${describeIssues(document.error)})`);
  const items = z.array(rssItem).safeParse(document.data.rss.channel.item);
  if (!items.success) throw new FeedFormatError(`roadmap RSS refused: ${describeIssues(items.error)}`);
  const mapped = items.data.map((item) => ({ ...toRawItem(item, vocabulary), original: item }));
  const records = normalizeRoadmapFeed(
    mapped.map((m) => m.raw),
    mapped.map((m) => ({ rss: m.original })),
  );
  records.forEach((record, i) => (record.lossy = { absent: mapped[i]?.hasMoreInfoLink ? [] : ['moreInfoLink'], spacing: true }));
  return { records, drift: driftOfItems(document.data.rss.channel.item, RSS_ITEM_FIELDS) };
}

/** A whole RSS document → records (parseRoadmapRss without the drift). */
export const roadmapRecordsFromRss = (text: string, vocabulary: RoadmapVocabulary = roadmapVocabulary()): RoadmapRecord[] =>
  parseRoadmapRss(text, vocabulary).records;
