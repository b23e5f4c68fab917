/**
 * The whole data model. Roadmap items and Message Center posts share one `items` table (with a `source`
 * discriminator and source-specific nullable columns) so the unified list, search, filters and export are single
 * indexed queries instead of a UNION over two tables — see docs/architecture.md.
 */
import type { SchemaDriftInfo, TimingWindow } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const itemSource = pgEnum('item_source', ['roadmap', 'messages']);
export const historyChangeType = pgEnum('history_change_type', ['new', 'changed', 'removed']);
export const syncSource = pgEnum('sync_source', ['roadmap', 'message_center']);
/**
 * running → success | unchanged (the feed answered 304 or the same bytes as the last applied snapshot) | held (the
 * snapshot guard kept it for an admin) | failed | not_configured | interrupted (the process stopped mid-run).
 */
export const syncStatus = pgEnum('sync_status', ['running', 'success', 'failed', 'not_configured', 'held', 'unchanged', 'interrupted']);
export const outboxStatus = pgEnum('outbox_status', ['pending', 'sending', 'sent', 'failed']);

// ---------------------------------------------------------------- people, roles, sessions

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  /** Always stored trimmed and lower-cased. */
  email: text('email').notNull().unique(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  profileImageUrl: text('profile_image_url'),
  emailVerifiedAt: ts('email_verified_at'),
  lastLoginAt: ts('last_login_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  permissions: text('permissions')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  isBuiltIn: boolean('is_built_in').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const userRoles = pgTable(
  'user_roles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_roles_user_role_uq').on(t.userId, t.roleId), index('user_roles_role_idx').on(t.roleId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque cookie value: a database leak does not leak usable sessions. */
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    /** Effective role while an admin impersonates one (development tool); null otherwise. */
    impersonatedRole: text('impersonated_role'),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const signInCodes = pgTable(
  'sign_in_codes',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** HMAC of the code; the code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** The requesting client's address key (an IPv6 /64 as one, http/client-address.ts), for the per-address limit. */
    requestIp: text('request_ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    consumedAt: ts('consumed_at'),
  },
  (t) => [index('sign_in_codes_email_idx').on(t.email, t.createdAt), index('sign_in_codes_ip_idx').on(t.requestIp, t.createdAt)],
);

/**
 * Personal API tokens (`Authorization: Bearer rdr_…`) for feeds, scripts and agents. Only the SHA-256 of a token is
 * stored (256 random bits: a plain hash cannot be reversed, and a lookup by hash needs no per-row salt).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, shown in the list to tell tokens apart. */
    prefix: text('prefix').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId, t.createdAt.desc())],
);

/**
 * A sign-up waiting for its code: no account exists until the code is verified, so nobody can pre-register someone
 * else's address with a chosen name. It lives as long as the newest code sent to the address.
 */
export const pendingSignups = pgTable('pending_signups', {
  email: text('email').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
});

/**
 * One row per failed code verification: the per-account cap (wrong codes across all of an address's codes) and the
 * per-client throttle of the verify route count these. Kept a day, like the codes.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** Client address key (an IPv6 /64 as one). */
    clientKey: text('client_key'),
    /** A live code was checked and was wrong (counts toward the account cap); false for no code, expired, cool-down. */
    wrongCode: boolean('wrong_code').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_email_idx').on(t.email, t.createdAt), index('sign_in_failures_client_idx').on(t.clientKey, t.createdAt)],
);

// ---------------------------------------------------------------- items, history, links

export interface ThirdPartyLinkRow {
  title: string;
  url: string;
  type: 'other' | 'video' | 'blog' | 'documentation' | 'tutorial';
  description?: string;
  name?: string;
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
    index('items_created_cover_idx')
      .on(
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
      )
      .where(sql`NOT ${t.isRemoved}`),
    index('items_modified_cover_idx')
      .on(
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
      )
      .where(sql`NOT ${t.isRemoved}`),
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

export const syncHistory = pgTable(
  'sync_history',
  {
    id: serial('id').primaryKey(),
    source: syncSource('source').notNull(),
    /** schedule | admin | cli | startup | demo */
    trigger: text('trigger').notNull(),
    triggeredBy: integer('triggered_by').references(() => users.id, { onDelete: 'set null' }),
    status: syncStatus('status').notNull().default('running'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    itemsProcessed: integer('items_processed').notNull().default(0),
    totalItems: integer('total_items').notNull().default(0),
    newItems: integer('new_items').notNull().default(0),
    changedItems: integer('changed_items').notNull().default(0),
    removedItems: integer('removed_items').notNull().default(0),
    restoredItems: integer('restored_items').notNull().default(0),
    /** Records in the snapshot already expired (posts past their end date), and changed items among them. */
    expiredInFeed: integer('expired_in_feed').notNull().default(0),
    changedExpired: integer('changed_expired').notNull().default(0),
    errorMessage: text('error_message'),
    /** What the run read: json | rss (roadmap), graph (Message Center), file (CLI import), demo. Null before the fetch. */
    feedFormat: text('feed_format'),
    /** Why the run ended as it did when that is not an error: the RSS fallback's reason, a hold's reason, a 304. */
    note: text('note'),
    /** Said once when the source read changed for the worse (the roadmap's preferred source stopped working). */
    warning: text('warning'),
    /** Schema drift of the snapshot read: unexpected and missing item fields with item counts; null when none. */
    drift: jsonb('drift').$type<SchemaDriftInfo>(),
    /**
     * The response a successful or unchanged run applied, for conditional requests next time (If-None-Match,
     * If-Modified-Since) and the unchanged-body check. Only meaningful for the same URL.
     */
    feedUrl: text('feed_url'),
    etag: text('etag'),
    lastModified: text('last_modified'),
    bodyHash: text('body_hash'),
  },
  (t) => [index('sync_history_started_idx').on(t.startedAt.desc()), index('sync_history_source_idx').on(t.source, t.startedAt.desc())],
);

/**
 * A snapshot the guard refused to apply (empty, or removing more than SYNC_MAX_REMOVED_PERCENT of the live items),
 * kept as the feed sent it until an admin applies or discards it. The payload is dropped once decided.
 */
export const heldSnapshots = pgTable(
  'held_snapshots',
  {
    syncId: integer('sync_id')
      .primaryKey()
      .references(() => syncHistory.id, { onDelete: 'cascade' }),
    source: syncSource('source').notNull(),
    /** pending | applied | discarded | superseded (a newer snapshot of the source was applied or held). */
    status: text('status').notNull().default('pending'),
    reason: text('reason').notNull(),
    /** json | rss | graph | file | demo: how to parse `payload` again. */
    format: text('format').notNull(),
    payload: text('payload'),
    /** Identity of the snapshot's content (its items' content hashes), so the same bad snapshot is held once. */
    snapshotHash: text('snapshot_hash').notNull(),
    itemCount: integer('item_count').notNull(),
    activeBefore: integer('active_before').notNull(),
    wouldRemove: integer('would_remove').notNull(),
    feedUrl: text('feed_url'),
    etag: text('etag'),
    lastModified: text('last_modified'),
    bodyHash: text('body_hash'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    appliedSyncId: integer('applied_sync_id').references(() => syncHistory.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('held_snapshots_pending_idx')
      .on(t.source)
      .where(sql`${t.status} = 'pending'`),
  ],
);

// ---------------------------------------------------------------- subscriptions, digest, mail

export const notificationSubscriptions = pgTable(
  'notification_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'item' (the digest has its own table) */
    subscriptionType: text('subscription_type').notNull().default('item'),
    /** 'roadmap' | 'message_center' and the provider id, as the client posts them. */
    itemType: text('item_type').notNull(),
    itemExternalId: text('item_external_id').notNull(),
    itemTitle: text('item_title'),
    changeTypes: text('change_types')
      .array()
      .notNull()
      .default(sql`'{changed,status_change}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_user_item_uq').on(t.userId, t.itemType, t.itemExternalId),
    index('subscriptions_item_idx')
      .on(t.itemType, t.itemExternalId)
      .where(sql`${t.isActive}`),
  ],
);

export const digestSubscribers = pgTable('digest_subscribers', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  isActive: boolean('is_active').notNull().default(true),
  /** 'signup' (visitor form) or 'account' (signed-in toggle). */
  origin: text('origin').notNull(),
  subscribedAt: ts('subscribed_at').notNull().defaultNow(),
  unsubscribedAt: ts('unsubscribed_at'),
  /**
   * Double opt-in: when the address was confirmed (the visitor's confirmation link, or a signed-in account, whose
   * address is verified). Only active, confirmed subscribers get digests.
   */
  confirmedAt: ts('confirmed_at'),
  /** SHA-256 of the nonce in the newest confirmation link; a newer sign-up replaces it, confirming clears it. */
  confirmTokenHash: text('confirm_token_hash'),
  /** The confirmation link stops working then; a never-confirmed visitor row is deleted after it. */
  confirmExpiresAt: ts('confirm_expires_at'),
  /** When the last confirmation mail was sent (at most one per address per few minutes). */
  confirmSentAt: ts('confirm_sent_at'),
});

/** One row per subscriber per week: the guard that makes the Sunday job send each digest once. */
export const digestDeliveries = pgTable(
  'digest_deliveries',
  {
    id: serial('id').primaryKey(),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => digestSubscribers.id, { onDelete: 'cascade' }),
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    outboxId: integer('outbox_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('digest_deliveries_week_uq').on(t.subscriberId, t.weekStart)],
);

/** Transactional outbox: a mail is written in the same transaction as the change that causes it. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    headers: jsonb('headers')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Makes enqueueing idempotent (e.g. one item mail per user per sync). */
    dedupeKey: text('dedupe_key').unique(),
    /**
     * Sensitive mail (sign-in codes, confirmation links): subject, html and text encrypted (mail/sealed-content.ts);
     * the plain columns then hold a placeholder. Deleted once the mail is sent, failed or past contentExpiresAt.
     */
    sealedContent: text('sealed_content'),
    /** A sealed mail is not sent after this (its code or link no longer works) and its content is deleted. */
    contentExpiresAt: ts('content_expires_at'),
    /** 0 goes first and has its own in-process sender (sign-in codes); bulk mail (the digest) is 9. See mail/priority.ts. */
    priority: smallint('priority').notNull().default(5),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('outbox_sealed_idx')
      .on(t.contentExpiresAt)
      .where(sql`${t.sealedContent} IS NOT NULL`),
    // The delivery claim walks this in priority order; only unsent rows are in it, so it stays small.
    index('outbox_claim_idx')
      .on(t.priority, t.id)
      .where(sql`${t.status} in ('pending', 'sending')`),
  ],
);

// ---------------------------------------------------------------- saved searches and alerts

export const alertScope = pgEnum('alert_scope', ['personal', 'organisation']);
export const alertChannelKind = pgEnum('alert_channel_kind', ['email', 'teams', 'slack', 'webhook']);
export const alertSchedule = pgEnum('alert_schedule', ['instant', 'daily', 'weekly']);

/**
 * Where alerts go. A personal channel belongs to its owner; an organisation channel was added by an admin (the owner,
 * who is e-mailed when it is paused) and every admin manages it. Webhook URLs and signing secrets are credentials:
 * stored only sealed (AES-256-GCM, lib/sealed-box.ts), shown as `urlHint` (host and the URL's last 4 characters).
 */
export const alertChannels = pgTable(
  'alert_channels',
  {
    id: serial('id').primaryKey(),
    scope: alertScope('scope').notNull().default('personal'),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: alertChannelKind('kind').notNull(),
    name: text('name').notNull(),
    urlSealed: text('url_sealed'),
    urlHint: text('url_hint'),
    /** Generic webhooks: the HMAC key of X-Radar-Signature. */
    secretSealed: text('secret_sealed'),
    paused: boolean('paused').notNull().default(false),
    pausedReason: text('paused_reason'),
    pausedAt: ts('paused_at'),
    /** Failed attempts in a row (reset by a success); at CHANNEL_PAUSE_AFTER_FAILURES the channel is paused. */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    lastDeliveryAt: ts('last_delivery_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('alert_channels_owner_idx').on(t.ownerUserId), index('alert_channels_scope_idx').on(t.scope)],
);

/**
 * A saved dashboard view with alerts. `query` is the list's query object (contracts `savedSearchQuery`), matched with
 * the list's own WHERE clause. Digests (daily/weekly) are due at `hour` (and `weekday`) in `timeZone`;
 * `digestAnchorAt` is when that schedule was set (no digest is due before it) and `lastDigestAt` the last slot sent.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    scope: alertScope('scope').notNull().default('personal'),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: jsonb('query').$type<Record<string, unknown>>().notNull(),
    alertOn: text('alert_on').array().notNull(),
    schedule: alertSchedule('schedule').notNull().default('instant'),
    hour: smallint('hour').notNull().default(8),
    weekday: smallint('weekday').notNull().default(1),
    timeZone: text('time_zone').notNull().default('UTC'),
    paused: boolean('paused').notNull().default(false),
    digestAnchorAt: ts('digest_anchor_at').notNull().defaultNow(),
    lastDigestAt: ts('last_digest_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('saved_searches_owner_idx').on(t.ownerUserId, t.createdAt.desc()),
    index('saved_searches_active_idx')
      .on(t.schedule)
      .where(sql`NOT ${t.paused}`),
  ],
);

export const savedSearchChannels = pgTable(
  'saved_search_channels',
  {
    savedSearchId: integer('saved_search_id')
      .notNull()
      .references(() => savedSearches.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => alertChannels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.savedSearchId, t.channelId] }), index('saved_search_channels_channel_idx').on(t.channelId)],
);

/**
 * The alert outbox: one row per message to one channel, written in the transaction that decides the alert (dedupe key
 * per logical alert, so a retried sync or digest run writes nothing twice). Webhook rows hold the body to POST and are
 * delivered with FOR UPDATE SKIP LOCKED claims; e-mail rows point at the mail_outbox row that carries them.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: serial('id').primaryKey(),
    /** The delivery's public id (webhook body `id`, X-Radar-Delivery): the same on every retry. */
    publicId: text('public_id').notNull(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => alertChannels.id, { onDelete: 'cascade' }),
    savedSearchIds: integer('saved_search_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    /** instant | daily | weekly | test */
    trigger: text('trigger').notNull(),
    dedupeKey: text('dedupe_key').unique(),
    /** The JSON body to POST (webhook channels). */
    body: text('body'),
    mailOutboxId: integer('mail_outbox_id'),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('alert_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('alert_deliveries_channel_idx').on(t.channelId, t.createdAt.desc())],
);

/** The delivery log: one row per attempt (time, status code, latency, the start of the answer). */
export const alertDeliveryAttempts = pgTable(
  'alert_delivery_attempts',
  {
    id: serial('id').primaryKey(),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => alertChannels.id, { onDelete: 'cascade' }),
    attemptedAt: ts('attempted_at').notNull(),
    /** sent | retrying | failed | queued */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    error: text('error'),
  },
  (t) => [index('alert_delivery_attempts_channel_idx').on(t.channelId, t.attemptedAt.desc())],
);

// ---------------------------------------------------------------- admin

export const contactSubmissions = pgTable(
  'contact_submissions',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull(),
    submittedAt: ts('submitted_at').notNull().defaultNow(),
    isRead: boolean('is_read').notNull().default(false),
    readAt: ts('read_at'),
  },
  (t) => [index('contact_submitted_idx').on(t.submittedAt.desc())],
);

export const productMappings = pgTable(
  'product_mappings',
  {
    id: serial('id').primaryKey(),
    sourceProduct: text('source_product').notNull(),
    dataSource: syncSource('data_source').notNull(),
    displayName: text('display_name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** The product's family as an admin set it; null: the rules decide (contracts productFamilyOf). */
    family: text('family'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_mappings_uq').on(t.sourceProduct, t.dataSource)],
);

export const moderatorActivities = pgTable(
  'moderator_activities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    actionType: text('action_type').notNull(),
    itemType: text('item_type').notNull(),
    itemId: text('item_id').notNull(),
    itemTitle: text('item_title').notNull().default(''),
    details: jsonb('details'),
    /**
     * 'server': written by the moderation save itself, in its transaction (the log's truth). 'client': posted by a
     * client to POST /api/moderator-activity without a matching server record (all rows from before server audit).
     */
    recordedBy: text('recorded_by').notNull().default('client'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('moderator_activities_created_idx').on(t.createdAt.desc()),
    index('moderator_activities_type_idx').on(t.actionType),
    index('moderator_activities_user_item_idx').on(t.userId, t.itemType, t.itemId, t.createdAt.desc()),
  ],
);

/**
 * "Since your last visit": when each signed-in user last looked at the dashboard. `lastSeenAt` is written at most every
 * LAST_VISIT_UPDATE_SECONDS; the value it replaced moves to `previousSeenAt`, the baseline the dashboard counts from.
 */
export const dashboardVisits = pgTable('dashboard_visits', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSeenAt: ts('last_seen_at').notNull(),
  previousSeenAt: ts('previous_seen_at'),
});

/** Small key/value state of the installation (e.g. whether demo data is loaded). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The data version (api/src/db/data-version.ts): one row whose counter every committed write to item data
 * (items, item_history, message_roadmap_links) moves forward, bumped by triggers in the writing transaction
 * (migration 0002). Caches of anything derived from items key on it.
 */
export const dataVersion = pgTable(
  'data_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    changedAt: ts('changed_at').notNull().defaultNow(),
  },
  (t) => [check('data_version_single_row', sql`${t.id} = 1`)],
);

/** Moves forward with every change of a remote's URL: the shell page and its CSP are cached per value (remotes.registry.ts). */
export const remotesRevision = pgSequence('remotes_revision_seq');

/**
 * The remote registry: which build of each remote (its mf-manifest.json URL) the shell loads. Rows start
 * from REMOTE_*_URL (`source` 'config', refreshed from the configuration at every start); an admin's change sets
 * 'admin' and is never overwritten by the configuration again.
 */
export const remotes = pgTable(
  'remotes',
  {
    name: text('name').primaryKey(),
    url: text('url').notNull(),
    previousUrl: text('previous_url'),
    source: text('source').notNull().default('config'),
    revision: bigint('revision', { mode: 'number' })
      .notNull()
      .default(sql`nextval('remotes_revision_seq')`),
    lastLoadedAt: ts('last_loaded_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('remotes_name_known', sql`${t.name} IN ('dashboard', 'admin', 'digest')`),
    check('remotes_source_known', sql`${t.source} IN ('config', 'admin')`),
  ],
);

export type ItemRow = typeof items.$inferSelect;
export type NewItemRow = typeof items.$inferInsert;
export type UserRow = typeof users.$inferSelect;
export type SyncHistoryRow = typeof syncHistory.$inferSelect;
export type HeldSnapshotRow = typeof heldSnapshots.$inferSelect;
