/** Contact submissions, product mappings, moderator activity and dashboard visits. */
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { users } from './people.js';
import { syncSource } from './sync.js';

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
    /**
     * The service plans that license the product as an admin set them (a trailing * for a prefix); null: the licence
     * table decides (contracts LICENCE_PLAN_RULES).
     */
    licencePlans: text('licence_plans').array(),
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
