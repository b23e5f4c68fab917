/** Saved searches, their channels, and the alert deliveries with their attempt log. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, serial, smallint, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './people.js';
import { attemptLogColumns, outboxColumns, pauseColumns } from './outbox.js';

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
    /** Paused by its owner, or after CHANNEL_PAUSE_AFTER_FAILURES failed attempts in a row (reset by a success). */
    ...pauseColumns(),
    lastDeliveryAt: ts('last_delivery_at'),
    /** A personal Teams, Slack or webhook channel that also gets its owner's triage notices (given, mentioned, due, overdue). */
    triageNotices: boolean('triage_notices').notNull().default(false),
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
    /**
     * The posts the message carries (item row ids): a delivery not yet made whose owner can no longer see one of
     * them (a grant revoked, a tenant made private, Admin taken away) is withdrawn.
     */
    itemIds: integer('item_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    /**
     * The tenants whose relevance the message tells ("Now High relevance for Fabrikam": the tenant's usage): withdrawn
     * like a post when its owner can no longer see one of them.
     */
    relevanceTenantIds: integer('relevance_tenant_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    mailOutboxId: integer('mail_outbox_id'),
    ...outboxColumns(),
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
    ...attemptLogColumns(),
  },
  (t) => [index('alert_delivery_attempts_channel_idx').on(t.channelId, t.attemptedAt.desc())],
);
