/** Sync runs and the snapshots the guard holds for an admin's decision. */
import type { SchemaDriftInfo } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './people.js';

export const syncSource = pgEnum('sync_source', ['roadmap', 'message_center', 'service_health']);
/**
 * running → success | unchanged (the feed answered 304 or the same bytes as the last applied snapshot) | held (the
 * snapshot guard kept it for an admin) | failed | not_configured | interrupted (the process stopped mid-run).
 */
export const syncStatus = pgEnum('sync_status', ['running', 'success', 'failed', 'not_configured', 'held', 'unchanged', 'interrupted']);

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
    /**
     * The tenant a Message Center run read (its name kept as it was, so the history still reads after the tenant is
     * removed); null for the roadmap.
     */
    tenantId: integer('tenant_id'),
    tenantName: text('tenant_name'),
  },
  (t) => [
    index('sync_history_started_idx').on(t.startedAt.desc()),
    index('sync_history_source_idx').on(t.source, t.startedAt.desc()),
    index('sync_history_tenant_idx').on(t.tenantId, t.startedAt.desc()),
  ],
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
    /** The tenant whose Message Center snapshot this is; null for the roadmap. Held and decided per tenant. */
    tenantId: integer('tenant_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('held_snapshots_pending_idx')
      .on(t.source)
      .where(sql`${t.status} = 'pending'`),
  ],
);
