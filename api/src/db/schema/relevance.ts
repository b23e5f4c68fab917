/** How relevant each item is to each tenant, computed from the tenant's usage and licences (docs/product/relevance.md). */
import type { RelevanceLevel } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, primaryKey, real, smallint, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { items } from './items.js';
import { tenants } from './tenants.js';

/**
 * One row per item and tenant whose relevance was computed (features/relevance): live roadmap items for every
 * tenant, live Message Center posts for the tenants that received them. `level` is a number so "most relevant first"
 * is its descending order and the list's filter reads the (tenant, level, item) index: 3 High, 2 Medium, 1 Low,
 * 0 Unknown. A row is written only when what it says changes, so `computed_at` is when it last changed.
 */
export const itemRelevance = pgTable(
  'item_relevance',
  {
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    level: smallint('level').notNull(),
    /** The usage workload the level was read from (contracts USAGE_WORKLOADS); null when none was. */
    workload: text('workload'),
    activeUsers: integer('active_users'),
    /** Active users over licensed users; null when the licensed users are not known. */
    share: real('share'),
    reason: text('reason').notNull(),
    computedAt: ts('computed_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.tenantId] }),
    index('item_relevance_tenant_level_item_idx').on(t.tenantId, t.level, t.itemId),
    check('item_relevance_level_known', sql`${t.level} BETWEEN 0 AND 3`),
  ],
);

export type ItemRelevanceRow = typeof itemRelevance.$inferSelect;

/**
 * Each time an item's level for a tenant moved between known levels (Low, Medium, High; a usage read, a licence, a
 * changed threshold), written by a trigger on item_relevance whatever wrote the row: what saved searches on relevance
 * alert on ("now High for Contoso", docs/product/relevance.md). A row written for the first time, and a move from or
 * to Unknown (the first usage read of a tenant rates every item at once), is none. `moved_at` is the row's
 * `computed_at`; `alerted_at` is set when the instant alerts took the move, once. Kept 30 days, like alert records.
 */
export const relevanceMoves = pgTable(
  'relevance_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    fromLevel: smallint('from_level').notNull(),
    toLevel: smallint('to_level').notNull(),
    movedAt: ts('moved_at').notNull(),
    alertedAt: ts('alerted_at'),
  },
  (t) => [
    index('relevance_moves_pending_idx')
      .on(t.id)
      .where(sql`${t.alertedAt} IS NULL`),
    index('relevance_moves_moved_at_idx').on(t.movedAt),
    index('relevance_moves_item_tenant_idx').on(t.itemId, t.tenantId, t.movedAt),
  ],
);

/** How `item_relevance.level` stores each level: most relevant highest. */
export const RELEVANCE_LEVEL_VALUE: Readonly<Record<RelevanceLevel, number>> = { high: 3, medium: 2, low: 1, unknown: 0 };

/** The level a stored `level` means. */
export function relevanceLevelOf(value: number): RelevanceLevel {
  return value >= 3 ? 'high' : value === 2 ? 'medium' : value === 1 ? 'low' : 'unknown';
}
