import { sql, type SQL } from 'drizzle-orm';
import type { FeaturedItem, ReleaseMoveStats, ThirdPartyLink, UnifiedItem } from '@radar/contracts';
import { items, type ItemRow } from '../../db/schema/index.js';
import { htmlToPlainText, SANITIZE_VERSION, sanitizeForOutput, sanitizeMaybeHtml } from '../../lib/html.js';

/**
 * The one mapping from an `items` row to the unified item (contracts' `unifiedItem`), used by every route that answers items
 * (list, linked items, moderation, digest). Rules:
 * - `id` is `roadmap-<itemId>` / `messages-<messageId>` / `health-<issueId>` (unique across the sources).
 * - Service Health issues carry `issueId` and `isResolved`; their service is `service` as for posts, their
 *   classification is `category`, and their status keeps Graph's spelling (serviceRestored…).
 * - createdDate/modifiedDate are filled for both sources (they are the sort keys of the list); messages also carry
 *   publishedDate/lastUpdatedDate (same instants), roadmap items carry null there.
 * - Roadmap: product = products joined with ', '; service/services null. Messages: service = the services array,
 *   services = the same joined with ', ', product null.
 * - bodyContent and HTML descriptions are sanitised for output (see html.ts): the copies stored with the row when
 *   they are of the current policy, else sanitised here; plain-text descriptions pass through.
 * - moderatorNotes is present only with `includeNotes` (moderators and admins); otherwise the key is absent, and
 *   moderatedBy is the moderator's e-mail for staff but only the word 'moderator' for everyone else.
 */

/** The columns the mapper reads: select these (not `raw`, `search_vector`) for lists. */
export const unifiedItemColumns = {
  id: items.id,
  source: items.source,
  externalId: items.externalId,
  title: items.title,
  description: items.description,
  summary: items.summary,
  bodyHtml: items.bodyHtml,
  bodySafe: items.bodySafe,
  descriptionSafe: items.descriptionSafe,
  safeVersion: items.safeVersion,
  status: items.status,
  products: items.products,
  tags: items.tags,
  cloudInstances: items.cloudInstances,
  releasePhases: items.releasePhases,
  platforms: items.platforms,
  releaseDate: items.releaseDate,
  previewDate: items.previewDate,
  moreInfoLink: items.moreInfoLink,
  createdDate: items.createdDate,
  modifiedDate: items.modifiedDate,
  category: items.category,
  severity: items.severity,
  isMajorChange: items.isMajorChange,
  userImpact: items.userImpact,
  adminImpact: items.adminImpact,
  actionRequiredBy: items.actionRequiredBy,
  externalLinks: items.externalLinks,
  attachments: items.attachments,
  contentHash: items.contentHash,
  isRemoved: items.isRemoved,
  removedAt: items.removedAt,
  endDate: items.endDate,
  gaMoves: items.gaMoves,
  gaShiftMonths: items.gaShiftMonths,
  previewMoves: items.previewMoves,
  previewShiftMonths: items.previewShiftMonths,
  releaseMovedAt: items.releaseMovedAt,
  timing: items.timing,
  timingStart: items.timingStart,
  timingEnd: items.timingEnd,
  productFamilies: items.productFamilies,
  tenantIds: items.tenantIds,
  isResolved: items.isResolved,
  isFeatured: items.isFeatured,
  featuredAt: items.featuredAt,
  thirdPartyLinks: items.thirdPartyLinks,
  moderatorNotes: items.moderatorNotes,
  moderatedBy: items.moderatedBy,
} as const;

export type UnifiedItemRow = Pick<ItemRow, keyof typeof unifiedItemColumns>;

/** The columns as hand-written SQL, aliased to the row keys, with some read differently (`instead`). */
function columnsSql(instead: Partial<Record<keyof typeof unifiedItemColumns, SQL>> = {}): SQL {
  return sql.join(
    Object.entries(unifiedItemColumns).map(
      ([key, column]) =>
        sql`${instead[key as keyof typeof unifiedItemColumns] ?? sql`${sql.identifier('items')}.${sql.identifier(column.name)}`} AS ${sql.identifier(key)}`,
    ),
    sql`, `,
  );
}

/** The same columns for hand-written SQL (`SELECT ${unifiedItemSelectSql} FROM items`), aliased to the row keys. */
export const unifiedItemSelectSql: SQL = columnsSql();

/**
 * The columns `toUnifiedItem` needs and no more: the stored body only where it has no copy of the current policy.
 * Long bodies are stored out of line; reading one the answer will not use costs the database a TOAST fetch and
 * the api its bytes. For callers that map rows with `toUnifiedItem` alone (not the feeds, the digest or exports,
 * which read the stored text).
 */
export const unifiedItemAnswerSql: SQL = columnsSql({
  bodyHtml: sql`CASE WHEN items.safe_version = ${sql.raw(String(SANITIZE_VERSION))} AND items.body_safe IS NOT NULL THEN NULL ELSE items.body_html END`,
});

/**
 * The columns without the sanitised copies, for callers that read the provider's text themselves and send none of
 * it as HTML (feed entries, featured cards: plain text). A row read so and mapped with `toUnifiedItem` after all is
 * sanitised there (no copies: version 0), never sent unsanitised.
 */
export const unifiedItemStoredTextSql: SQL = columnsSql({ bodySafe: sql`NULL::text`, descriptionSafe: sql`NULL::text`, safeVersion: sql`0::smallint` });

export interface ToUnifiedItemOptions {
  /** Moderators and admins only. */
  includeNotes: boolean;
}

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
const joined = (list: string[] | null | undefined): string | null => (list && list.length ? list.join(', ') : null);

/**
 * Sanitising a body is the costliest step of mapping a row (docs/benchmarks.md, "Figures behind the code"); the list sends up to 50 per page and the
 * same items are asked for again and again, so results are kept in a small LRU keyed by row id and content hash (a
 * changed body has a new hash, so nothing stale is ever served).
 */
const CACHE_LIMIT = 5000;
const sanitizedCache = new Map<string, string>();
function cachedSanitize(key: string, html: string, fn: (s: string) => string): string {
  const hit = sanitizedCache.get(key);
  if (hit !== undefined) {
    sanitizedCache.delete(key);
    sanitizedCache.set(key, hit);
    return hit;
  }
  const clean = fn(html);
  sanitizedCache.set(key, clean);
  for (const oldest of sanitizedCache.keys()) {
    if (sanitizedCache.size <= CACHE_LIMIT) break;
    sanitizedCache.delete(oldest);
  }
  return clean;
}

export function unifiedIdOf(row: Pick<ItemRow, 'source' | 'externalId'>): string {
  return `${row.source}-${row.externalId}`;
}

/** The date-slip counters of a roadmap row (contracts `releaseMoveStats`). */
export function releaseMovesOf(
  row: Pick<UnifiedItemRow, 'gaMoves' | 'gaShiftMonths' | 'previewMoves' | 'previewShiftMonths' | 'releaseMovedAt'>,
): ReleaseMoveStats {
  return {
    total: row.gaMoves + row.previewMoves,
    gaMoves: row.gaMoves,
    gaShiftMonths: row.gaShiftMonths,
    previewMoves: row.previewMoves,
    previewShiftMonths: row.previewShiftMonths,
    lastMovedAt: iso(row.releaseMovedAt),
  };
}

export function toUnifiedItem(row: UnifiedItemRow, opts: ToUnifiedItemOptions): UnifiedItem {
  const isRoadmap = row.source === 'roadmap';
  const cacheKey = (part: string) => `${row.id}:${row.contentHash}:${part}`;
  // The copies made when the text was written, when they are of the policy in force (see html.ts safeCopiesOf).
  const copies = row.safeVersion === SANITIZE_VERSION;
  const description = row.description
    ? copies
      ? (row.descriptionSafe ?? row.description)
      : cachedSanitize(cacheKey('d'), row.description, sanitizeMaybeHtml)
    : null;
  const bodyContent = copies && row.bodySafe !== null ? row.bodySafe : row.bodyHtml ? cachedSanitize(cacheKey('b'), row.bodyHtml, sanitizeForOutput) : null;
  const item: UnifiedItem = {
    id: unifiedIdOf(row),
    source: row.source,
    title: row.title,
    itemId: isRoadmap ? row.externalId : null,
    messageId: row.source === 'messages' ? row.externalId : null,
    summary: row.summary ?? null,
    description,
    status: row.status ?? null,
    product: isRoadmap ? joined(row.products) : null,
    service: isRoadmap ? null : [...row.products],
    services: isRoadmap ? null : joined(row.products),
    tags: [...row.tags],
    userImpact: row.userImpact,
    adminImpact: row.adminImpact,
    isMajorChange: row.isMajorChange,
    isFeatured: row.isFeatured,
    releaseDate: row.releaseDate ?? null,
    previewDate: row.previewDate ?? null,
    createdDate: iso(row.createdDate),
    modifiedDate: iso(row.modifiedDate),
    publishedDate: isRoadmap ? null : iso(row.createdDate),
    lastUpdatedDate: isRoadmap ? null : iso(row.modifiedDate),
    actionRequiredByDate: iso(row.actionRequiredBy),
    platforms: joined(row.platforms),
    cloudInstances: joined(row.cloudInstances),
    releasePhase: joined(row.releasePhases),
    category: row.category ?? null,
    severity: row.severity ?? null,
    value: null,
    bodyContent,
    moreInfoLink: row.moreInfoLink ?? null,
    externalLinks: row.externalLinks ?? [],
    attachments: row.attachments ?? [],
    thirdPartyLinks: (row.thirdPartyLinks ?? []) as ThirdPartyLink[],
    // Who curated is staff information: others learn only that a moderator did ('Curated by moderator').
    moderatedBy: row.moderatedBy ? (opts.includeNotes ? row.moderatedBy : 'moderator') : null,
    isRemoved: row.isRemoved,
    removedAt: row.isRemoved ? iso(row.removedAt) : null,
    endDate: iso(row.endDate),
    releaseMoves: isRoadmap || row.gaMoves > 0 ? releaseMovesOf(row) : null,
    timing: row.timing ?? [],
    timingStart: row.timingStart ?? null,
    timingEnd: row.timingEnd ?? null,
  };
  if (row.source === 'health') {
    item.issueId = row.externalId;
    item.isResolved = row.isResolved;
  }
  if (opts.includeNotes) item.moderatorNotes = row.moderatorNotes ?? null;
  return item;
}

/** Featured card: plain-text description/summary, product for roadmap items, services for messages. */
export function toFeaturedItem(row: UnifiedItemRow): FeaturedItem {
  const isRoadmap = row.source === 'roadmap';
  return {
    source: row.source,
    id: unifiedIdOf(row),
    itemId: isRoadmap ? row.externalId : null,
    messageId: row.source === 'messages' ? row.externalId : null,
    ...(row.source === 'health' ? { issueId: row.externalId, isResolved: row.isResolved } : {}),
    title: row.title,
    description: row.description ? htmlToPlainText(row.description) : null,
    summary: row.summary ?? null,
    product: isRoadmap ? joined(row.products) : null,
    services: isRoadmap ? null : joined(row.products),
    status: row.status ?? null,
  };
}
