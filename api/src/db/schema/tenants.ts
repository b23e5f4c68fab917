/** The Microsoft 365 tenants whose Message Center the product reads, which posts each received, and who may see them. */
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { items } from './items.js';
import { users } from './people.js';

/**
 * A tenant read through its own Entra app (client credentials). The secret is sealed at rest with the product's key
 * (features/tenants/tenant-secret.ts) and never returned; `cloud` decides the login and Graph hosts. `public`: every
 * reader sees its posts; `private`: admins and the users given access (tenant_access).
 */
export const tenants = pgTable(
  'tenants',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Directory (tenant) id, a GUID or a verified domain, as Entra accepts it in the token URL. */
    directoryId: text('directory_id').notNull(),
    /** Null once the tenant is removed: nothing of its credentials is kept. */
    clientId: text('client_id'),
    clientSecretSealed: text('client_secret_sealed'),
    /** When the admin said the secret expires (shown, so a renewal is not missed); null: not given. */
    secretExpiresOn: date('secret_expires_on', { mode: 'string' }),
    /** worldwide | gcc | gcchigh | dod */
    cloud: text('cloud').notNull().default('worldwide'),
    /** public | private */
    visibility: text('visibility').notNull().default('private'),
    enabled: boolean('enabled').notNull().default(true),
    /** Set for the tenant made from the GRAPH_* settings, so a restart finds it again instead of adding another. */
    fromEnvironment: boolean('from_environment').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The tenant's triage starting line (features/triage/triage-start.ts): its posts and issues already past then open
     * no work. When the tenant was added, until an admin moves it (Admin → Triage).
     */
    triageStart: ts('triage_start').notNull().defaultNow(),
    /**
     * When an admin removed the tenant while keeping its posts: the row stays, without credentials and never synced,
     * so the posts it received stay attributed to it in the archive.
     */
    removedAt: ts('removed_at'),
    /**
     * The tenant's service health now (Graph `healthOverviews`: one entry per service with its status), as its last
     * Service Health run read it, and when.
     */
    healthOverview: jsonb('health_overview').$type<{ service: string; status: string }[]>(),
    healthOverviewAt: ts('health_overview_at'),
    /**
     * The products the tenant licenses (its enabled service plans through contracts licensedProductsOf), as read with
     * its last Service Health run; null until read. The list's `licensed` filter reads it.
     */
    licensedProducts: text('licensed_products').array(),
    /** The enabled service plans as read (kept so an admin's change of the licence table applies at once). */
    licensedPlans: text('licensed_plans').array(),
    licencesAt: ts('licences_at'),
    /** Why the last licence read failed (kept until one succeeds). */
    licencesError: text('licences_error'),
    /** When the usage reports were last read (features/usage): their counts are in tenant_usage. */
    usageAt: ts('usage_at'),
    /** When they were last tried, read or not: they are read once a day, a failed read again after an hour. */
    usageTriedAt: ts('usage_tried_at'),
    /** Why the last usage read failed (kept until one succeeds). */
    usageError: text('usage_error'),
    /** The app lacks Reports.Read.All: the tenant's usage is not read (relevance says Unknown), nothing else is affected. */
    usagePermissionMissing: boolean('usage_permission_missing').notNull().default(false),
  },
  (t) => [
    uniqueIndex('tenants_directory_uq')
      .on(t.directoryId)
      .where(sql`${t.removedAt} IS NULL`),
    uniqueIndex('tenants_name_uq')
      .on(t.name)
      .where(sql`${t.removedAt} IS NULL`),
  ],
);

/**
 * Which tenants received a post: one row per post and tenant. `expired`: the tenant's Message Center no longer lists
 * it (Microsoft dropped it, or it ended); the post itself is removed only when no tenant lists it any more.
 */
export const itemTenants = pgTable(
  'item_tenants',
  {
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    firstSeenAt: ts('first_seen_at').notNull(),
    /** The post's lastModifiedDateTime as this tenant last showed it. */
    lastModifiedAt: ts('last_modified_at'),
    expired: boolean('expired').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.tenantId] }), index('item_tenants_tenant_idx').on(t.tenantId, t.itemId)],
);

/** The private tenants a user who is not an admin may see (public tenants need no row). */
export const tenantAccess = pgTable(
  'tenant_access',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tenantId] })],
);

/**
 * A tenant's usage as Graph's usage reports count it: per day, workload (contracts USAGE_WORKLOADS) and window the
 * active users over `period_days` up to the report date, and the licensed where the report says. The apps have two
 * windows: each day's count (1, the trend) and the 30 days' (what relevance reads). Read daily; a report read again
 * for the same day replaces its count; kept for 13 months (contracts USAGE_KEEP_DAYS).
 */
export const tenantUsage = pgTable(
  'tenant_usage',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    reportDate: date('report_date', { mode: 'string' }).notNull(),
    workload: text('workload').notNull(),
    activeUsers: integer('active_users').notNull(),
    licensedUsers: integer('licensed_users'),
    periodDays: integer('period_days').notNull(),
    readAt: ts('read_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.reportDate, t.workload, t.periodDays] })],
);
