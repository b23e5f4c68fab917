/** Item follows, the weekly digest's subscribers and deliveries, and the mail outbox. */
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { outboxColumns } from './outbox.js';
import { users } from './people.js';

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
    providerMessageId: text('provider_message_id'),
    ...outboxColumns(),
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
