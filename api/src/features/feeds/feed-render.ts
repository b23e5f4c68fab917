import { Feed } from 'feed';
import { healthStatusLabel, PRODUCT_NAME, SOURCE_ITEM_NOUNS } from '@radar/contracts';
import { htmlToPlainText } from '../../lib/html.js';
import { shareUrlOf } from '../items/share-link.js';
import { changeSummaryHtml, escapeHtml, summarizeChange } from './change-summary.js';
import type { FeedItemRow } from './feed-items.repo.js';
import type { FeedRelevance } from './feed-relevance.js';

export interface FeedMeta {
  /** Human description of the view ("Microsoft Teams · Rolling out"); empty for the whole list. */
  view: string;
  publicUrl: string;
  /** Canonical URLs of this view's feeds (same query), for self and alternate links. */
  rssUrl: string;
  atomUrl: string;
  /** The dashboard showing this view. */
  dashboardUrl: string;
  /** When the data last changed: the feed's date when it has no entries. */
  dataChangedAt: Date;
}

const DESCRIPTION_CHARS = 300;

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * Builds the RSS 2.0 and Atom 1.0 documents of a view with the `feed` library. Everything in them comes from the
 * data (no "generated at" time), so the same data and query give the same bytes in every process: the ETag is a
 * hash of the body and a reader's conditional request gets a 304 from any replica.
 *
 * An entry is an item; its id/guid names the item's latest version (`#change-<history id>`), so a reader shows an
 * item again when it changes, and its content is what that version changed. For a signed-in reader (`relevance`),
 * an entry with relevance says it first in its description and content ("Relevance: High — <reason>"), and has it
 * as a category.
 */
export function buildItemsFeed(rows: FeedItemRow[], meta: FeedMeta, format: 'rss' | 'atom', relevance?: ReadonlyMap<number, FeedRelevance>): string {
  const newest = rows.find((r) => r.activity)?.activity ?? meta.dataChangedAt;
  const title = meta.view ? `${PRODUCT_NAME}: ${meta.view}` : `${PRODUCT_NAME}: all items`;
  const feed = new Feed({
    title,
    id: meta.atomUrl,
    link: meta.dashboardUrl,
    description: `AI at Work Roadmap (formerly Microsoft 365 Roadmap), Message Center and Service Health items${meta.view ? ` matching ${meta.view}` : ''}, newest activity first.`,
    language: 'en',
    updated: newest,
    generator: PRODUCT_NAME,
    feedLinks: { rss: meta.rssUrl, atom: meta.atomUrl },
    // Roadmap syncs run every 6 hours, Message Center hourly: asking more often than hourly gains nothing.
    ttl: 60,
    copyright: 'Content © Microsoft; collected by M365 Radar',
  });
  for (const row of rows) {
    const isRoadmap = row.source === 'roadmap';
    const url = shareUrlOf(meta.publicUrl, row);
    const summary = summarizeChange(row.latest, SOURCE_ITEM_NOUNS[row.source]);
    const text = htmlToPlainText(isRoadmap ? row.description : (row.summary ?? row.bodyHtml));
    const idLabel = isRoadmap ? `Roadmap ID ${row.externalId}` : row.externalId;
    const status = row.source === 'health' ? healthStatusLabel(row.status) : row.status;
    const relevant = relevance?.get(row.id);
    feed.addItem({
      title: summary.kind === 'New' || summary.kind === 'Listed' ? row.title : `${summary.kind}: ${row.title}`,
      id: row.historyId ? `${url}#change-${row.historyId}` : url,
      link: url,
      date: row.activity ?? row.createdDate ?? meta.dataChangedAt,
      // Atom has both dates; RSS has one pubDate, which must be the activity so readers order entries by change.
      ...(format === 'atom' && row.createdDate ? { published: row.createdDate } : {}),
      // The relevance line before the text, so the 300-character cut never takes it.
      description: shorten(`${idLabel}. ${relevant ? `${relevant.line}. ` : ''}${text}`.trim(), DESCRIPTION_CHARS),
      content: `${relevant ? `<p>${escapeHtml(relevant.line)}</p>` : ''}${changeSummaryHtml(summary, row.latest, url)}`,
      // Atom's category needs its term (the library writes `name` as its label only); RSS writes the name.
      category: [...new Set([...(status ? [status] : []), ...row.products, ...(relevant ? [relevant.category] : [])])].map((name) => ({ name, term: name })),
    });
  }
  return format === 'rss' ? feed.rss2() : feed.atom1();
}
