/**
 * The items of both sources in one table (a `source` discriminator and source-specific nullable columns), so the
 * unified list, search, filters and export are single indexed queries instead of a UNION over two tables
 * (docs/architecture.md); their history, links and attachments.
 */
import type { TimingWindow } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgEnum, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, ts, tsvector } from './columns.js';
import { syncHistory } from './sync.js';

export const itemSource = pgEnum('item_source', ['roadmap', 'messages', 'health']);
export const historyChangeType = pgEnum('history_change_type', ['new', 'changed', 'removed']);

export interface ThirdPartyLinkRow {
  title: string;
  url: string;
  type: 'other' | 'video' | 'blog' | 'documentation' | 'tutorial';
  description?: string;
  name?: string;
}
export interface HealthPostRow {
  postedAt: string;
  postType: string | null;
  html: string;
}
export interface ExternalLinkRow {
  name: string;
  url: string;
}

export const items = pgTable(
  'items',
  {
    id: serial('id').primaryKey(),
    source: itemSource('source').notNull(),
    /** Roadmap id ("496594") or Message Center id ("MC1000269"). */
    externalId: text('external_id').notNull(),
    title: text('title').notNull(),
    /** Roadmap description (may hold HTML; sanitised when shown). */
    description: text('description'),
    /** Message Center summary (details.Summary). */
    summary: text('summary'),
    /** Message Center body (HTML as the provider sends it; sanitised when shown). */
    bodyHtml: text('body_html'),
    /**
     * The body and an HTML description as they are sent out (lib/html.ts `safeCopiesOf`), made under the output
     * policy `safe_version` from the text `safe_source` fingerprints; a copy of another version is never sent.
     * description_safe is null for a plain-text description (sent as stored). A write whose text does not match
     * its fingerprint (text written without new copies) has safe_version set to 0 by a trigger.
     */
    bodySafe: text('body_safe'),
    descriptionSafe: text('description_safe'),
    safeVersion: smallint('safe_version').notNull().default(0),
    safeSource: text('safe_source'),
    /** Roadmap status as the feed spells it ("In development", …); null for messages. */
    status: text('status'),
    /** Roadmap products, or Message Center services. Case variants folded to one spelling. */
    products: text('products')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Message Center tags; the roadmap's flattened tag list for roadmap items. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cloudInstances: text('cloud_instances')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    releasePhases: text('release_phases')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    platforms: text('platforms')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Roadmap GA target ("March CY2026") and preview date (null when the feed has ""). */
    releaseDate: text('release_date'),
    previewDate: text('preview_date'),
    moreInfoLink: text('more_info_link'),
    /** Roadmap `created`; Message Center `startDateTime` (published). */
    createdDate: ts('created_date'),
    /** Roadmap `modified`; Message Center `lastModifiedDateTime`. */
    modifiedDate: ts('modified_date'),
    category: text('category'),
    severity: text('severity'),
    isMajorChange: boolean('is_major_change').notNull().default(false),
    userImpact: boolean('user_impact').notNull().default(false),
    adminImpact: boolean('admin_impact').notNull().default(false),
    actionRequiredBy: ts('action_required_by'),
    endDate: ts('end_date'),
    /** Roadmap ids the message names (details.RoadmapIds and links in the body). */
    roadmapIds: text('roadmap_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    externalLinks: jsonb('external_links')
      .$type<ExternalLinkRow[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** details.FeatureStatusJson without its per-fetch LastUpdateTime. */
    featureStatus: jsonb('feature_status'),
    /** Rollout windows read from a post's schedule section (sources/rollout-timing.ts); [] for roadmap items. */
    timing: jsonb('timing')
      .$type<TimingWindow[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * When the change reaches tenants: a post's earliest window start and latest window end, a roadmap item's GA
     * month. The list's Timing column, its sort and the "rolling out in the next N days" filter read these.
     */
    timingStart: date('timing_start', { mode: 'string' }),
    timingEnd: date('timing_end', { mode: 'string' }),
    /**
     * The product families of the item's products (microsoft365, dynamics365, powerPlatform, other): the rules of
     * contracts productFamilyOf with the admins' overrides (product_mappings.family), kept by the sync.
     */
    productFamilies: text('product_families')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Version of the values derived from feed text (timing); older rows are derived again at start (derived-fields.ts). */
    derivedVersion: smallint('derived_version').notNull().default(0),
    hasAttachments: boolean('has_attachments').notNull().default(false),
    attachments: jsonb('attachments')
      .$type<unknown[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Hash of the meaningful fields; equal hash means nothing worth recording changed. */
    contentHash: text('content_hash').notNull(),
    /** The provider's record as last fetched, for audits and re-parsing. */
    raw: jsonb('raw'),
    isRemoved: boolean('is_removed').notNull().default(false),
    removedAt: ts('removed_at'),
    firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    /** When a sync last recorded a meaningful change (or the item was first seen). */
    lastChangedAt: ts('last_changed_at').notNull().defaultNow(),
    /**
     * Date slips (roadmap): how often the GA date (`publicDisclosureAvailabilityDate`) and the preview date moved and
     * by how many months in total, kept by the sync from each recorded change (contracts release-dates.ts says
     * what a move is); `release_moves` is their sum, the key of the "most slipped" sort.
     */
    gaMoves: integer('ga_moves').notNull().default(0),
    gaShiftMonths: integer('ga_shift_months').notNull().default(0),
    previewMoves: integer('preview_moves').notNull().default(0),
    previewShiftMonths: integer('preview_shift_months').notNull().default(0),
    releaseMoves: integer('release_moves')
      .generatedAlwaysAs(sql`ga_moves + preview_moves`)
      .notNull(),
    /** When the GA or preview date last moved (the `releaseMoved` filter). */
    releaseMovedAt: ts('release_moved_at'),
    /** Demo data shipped with the product (offline first start); never mixed silently with live data. */
    isDemo: boolean('is_demo').notNull().default(false),
    /**
     * The tenants that received this Message Center post (item_tenants), kept by a trigger on that table so every
     * read can decide who may see the post without a join; empty for the roadmap and for posts of no tenant.
     */
    /**
     * Whose copy the stored fields are: the tenant whose Message Center run last wrote them (null: an unscoped run).
     * A tenant's own copy changing is a change over time even when Microsoft kept its lastModifiedDateTime; another
     * tenant's older or equally old copy that differs is a difference between tenants.
     */
    contentTenantId: integer('content_tenant_id'),
    /**
     * Service Health: every update Microsoft posted on the issue, oldest first. Posts are only ever added (a post
     * Microsoft no longer lists is kept), so an issue reads whole after Microsoft's 7 or 30 days. The body column
     * holds them too (newest first) so search finds any update.
     */
    healthPosts: jsonb('health_posts')
      .$type<HealthPostRow[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Service Health: Graph `isResolved`. */
    isResolved: boolean('is_resolved').notNull().default(false),
    /** Service Health: the impacted feature and its group, as Graph names them. */
    feature: text('feature'),
    featureGroup: text('feature_group'),
    tenantIds: integer('tenant_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    // curation: written only by moderators, never by a sync
    isFeatured: boolean('is_featured').notNull().default(false),
    featuredAt: ts('featured_at'),
    thirdPartyLinks: jsonb('third_party_links')
      .$type<ThirdPartyLinkRow[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    moderatorNotes: text('moderator_notes'),
    moderatedBy: text('moderated_by'),
    moderatedAt: ts('moderated_at'),
    /** Stored inline (STORAGE MAIN, set in migration 0001): searches test it on every row they walk. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('simple'::regconfig, coalesce(external_id, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(summary, '') || ' ' || regexp_replace(coalesce(description, '') || ' ' || coalesce(body_html, ''), '<[^>]*>', ' ', 'g')), 'B')`,
    ),
  },
  (t) => [
    uniqueIndex('items_source_external_uq').on(t.source, t.externalId),
    index('items_tenant_ids_idx').using('gin', t.tenantIds),
    index('items_external_lower_idx').on(sql`lower(${t.externalId})`),
    // Narrow (date, id) indexes: the default list and deep pages (index-only, ~80 entries per page).
    index('items_created_idx')
      .on(t.createdDate.desc(), t.id.desc())
      .where(sql`NOT ${t.isRemoved}`),
    index('items_modified_idx')
      .on(t.modifiedDate.desc(), t.id.desc())
      .where(sql`NOT ${t.isRemoved}`),
    // Covering (date, id) indexes for filtered lists: they carry every column a list filter reads (not the search
    // vector), so a filtered page walks one index in sort order, testing the filters on the index entries, and
    // stops after `limit` matches, reading no table row (an index-only scan; the table's visibility map is kept
    // current by autovacuum). Without them a filter matching a few thousand rows read a table page per match
    // (3,000–4,500 pages) and sorted them all. See docs/benchmarks.md. The carried columns are trailing key
    // columns (drizzle-kit cannot write INCLUDE); (date, id) is unique, so they never take part in the order.
    // Not partial: removed rows are carried with `is_removed` (a few percent of the entries), so the archive
    // (includeRemoved) with filters walks the same index; the tenants a post reached are carried for the
    // visibility test every guest's and user's list makes.
    index('items_created_cover_idx').on(
      t.createdDate.desc(),
      t.id.desc(),
      t.source,
      t.status,
      t.category,
      t.products,
      t.tags,
      t.cloudInstances,
      t.isFeatured,
      t.lastChangedAt,
      t.firstSeenAt,
      t.modifiedDate,
      t.isRemoved,
      t.tenantIds,
    ),
    index('items_modified_cover_idx').on(
      t.modifiedDate.desc(),
      t.id.desc(),
      t.source,
      t.status,
      t.category,
      t.products,
      t.tags,
      t.cloudInstances,
      t.isFeatured,
      t.lastChangedAt,
      t.firstSeenAt,
      t.createdDate,
      t.isRemoved,
      t.tenantIds,
    ),
    index('items_source_created_idx')
      .on(t.source, t.createdDate.desc())
      .where(sql`NOT ${t.isRemoved}`),
    // Not partial: PostgreSQL keeps statistics for an index expression only on non-partial indexes, and without
    // them it guessed 0.5% of rows for any lower(status) = … (a fifth of the items are 'In development').
    index('items_status_idx').on(sql`lower(${t.status})`),
    index('items_products_gin').using('gin', t.products),
    index('items_tags_gin').using('gin', t.tags),
    index('items_cloud_gin').using('gin', t.cloudInstances),
    index('items_families_gin').using('gin', t.productFamilies),
    index('items_featured_idx')
      .on(t.featuredAt.desc())
      .where(sql`${t.isFeatured}`),
    index('items_last_changed_idx').on(t.lastChangedAt.desc()),
    // sortField=timing and rollingOut=…: items with a timing, by when it starts.
    index('items_timing_idx')
      .on(t.timingStart, t.timingEnd, t.id)
      .where(sql`${t.timingStart} IS NOT NULL`),
    index('items_search_gin').using('gin', t.searchVector),
    // The archive (includeRemoved) lists every row in date order: the partial date indexes above skip removed rows.
    index('items_created_all_idx').on(t.createdDate.desc(), t.id.desc()),
    index('items_modified_all_idx').on(t.modifiedDate.desc(), t.id.desc()),
    // sortField=releaseMoves (not partial, so the archive sorts by it too; removed rows are a few percent).
    index('items_release_moves_idx').on(t.releaseMoves.desc(), t.createdDate.desc(), t.id.desc()),
    // releaseMoved=7days|30days: only items whose dates ever moved (a tenth of the roadmap), in list order, carrying
    // what the filter and the other sort read, so a page walks this small index and stops after `limit` matches
    // (index-only); a bitmap over release_moved_at read a table page per moved item and sorted them all.
    index('items_release_moved_created_idx')
      .on(t.createdDate.desc(), t.id.desc(), t.releaseMovedAt, t.isRemoved, t.source, t.modifiedDate)
      .where(sql`${t.releaseMovedAt} IS NOT NULL`),
  ],
);

export const itemHistory = pgTable(
  'item_history',
  {
    id: serial('id').primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    changeType: historyChangeType('change_type').notNull(),
    changeDate: ts('change_date').notNull(),
    changedFields: text('changed_fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    previousValues: jsonb('previous_values')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    newValues: jsonb('new_values')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    syncId: integer('sync_id').references(() => syncHistory.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('item_history_item_idx').on(t.itemId, t.changeDate.desc()),
    index('item_history_date_idx').on(t.changeDate.desc()),
    index('item_history_type_date_idx').on(t.changeType, t.changeDate.desc()),
  ],
);

/** A Message Center post names a roadmap item. Stored by id so a link to a not-yet-seen roadmap item resolves later. */
export const messageRoadmapLinks = pgTable(
  'message_roadmap_links',
  {
    messageItemId: integer('message_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    roadmapExternalId: text('roadmap_external_id').notNull(),
    /** 'details' (RoadmapIds) or 'body' (a roadmap link in the HTML). */
    origin: text('origin').notNull(),
  },
  (t) => [primaryKey({ columns: [t.messageItemId, t.roadmapExternalId] }), index('links_roadmap_idx').on(t.roadmapExternalId)],
);

/**
 * The files of a post's attachments, downloaded after each Message Center sync for the attachments the post lists
 * (items.attachments), so they stay available when the post expires. `content` is null until fetched, when it is
 * larger than ATTACHMENT_MAX_BYTES, or when Graph refused it (`error` says why).
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    attachmentId: text('attachment_id').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type'),
    size: integer('size'),
    /** Graph's lastModifiedDateTime: a newer one is downloaded again. */
    lastModified: text('last_modified'),
    content: bytea('content'),
    fetchedAt: ts('fetched_at'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.attachmentId] })],
);

/**
 * The post-incident report of a Service Health issue (Graph `/issues/{id}/incidentReport`), kept as Microsoft sent it
 * once it is published; Microsoft removes it with the issue, we do not.
 */
export const healthReports = pgTable('health_reports', {
  itemId: integer('item_id')
    .primaryKey()
    .references(() => items.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  contentType: text('content_type'),
  size: integer('size').notNull(),
  fetchedAt: ts('fetched_at').notNull(),
});
