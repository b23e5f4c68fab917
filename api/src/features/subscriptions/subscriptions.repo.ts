import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { NotificationSubscription } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { items, notificationSubscriptions } from '../../db/schema/index.js';
import { returned } from '../../db/returned.js';
import { tenantCondition, type TenantScope } from '../items/item-query.js';

type Row = typeof notificationSubscriptions.$inferSelect;

export function toSubscription(row: Row, visible = true): NotificationSubscription {
  return {
    id: row.id,
    subscriptionType: 'item',
    itemId: row.itemExternalId,
    itemType: row.itemType as NotificationSubscription['itemType'],
    itemTitle: visible ? row.itemTitle : null,
    changeTypes: row.changeTypes as NotificationSubscription['changeTypes'],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createSubscriptionsRepo(db: Db) {
  return {
    /**
     * The user's subscriptions. One to a post of tenants the user may no longer see (scope: a revoked grant) stays
     * listed, so it can be deleted, but without its title: it mails nothing while the post is out of the scope.
     */
    async listOwn(userId: number, scope: TenantScope | undefined): Promise<NotificationSubscription[]> {
      const hidden = tenantCondition(scope);
      const rows = await db
        .select({
          row: notificationSubscriptions,
          visible: hidden
            ? sql<boolean>`NOT EXISTS (SELECT 1 FROM items WHERE items.source = (CASE ${notificationSubscriptions.itemType} WHEN 'roadmap' THEN 'roadmap' ELSE 'messages' END)::item_source AND items.external_id = ${notificationSubscriptions.itemExternalId} AND NOT ${hidden})`
            : sql<boolean>`true`,
        })
        .from(notificationSubscriptions)
        .where(eq(notificationSubscriptions.userId, userId))
        .orderBy(desc(notificationSubscriptions.createdAt), desc(notificationSubscriptions.id));
      return rows.map((r) => toSubscription(r.row, r.visible));
    },

    /**
     * The item the client names (case-insensitive id), including removed ones (a removed item can come back); a post
     * of tenants the caller may not see (scope) is not found.
     */
    async findItem(itemType: 'roadmap' | 'message_center', externalId: string, scope: TenantScope | undefined) {
      const [row] = await db
        .select({ externalId: items.externalId, title: items.title })
        .from(items)
        .where(
          and(
            eq(items.source, itemType === 'roadmap' ? 'roadmap' : 'messages'),
            sql`lower(${items.externalId}) = lower(${externalId})`,
            tenantCondition(scope) ?? undefined,
          ),
        )
        .limit(1);
      return row;
    },

    /**
     * One subscription per user and item: subscribing again returns the existing row, re-activated (and with the
     * newly posted change types and title), instead of a duplicate. `created` tells the two cases apart.
     */
    async upsert(
      userId: number,
      input: { itemType: string; itemExternalId: string; itemTitle: string; changeTypes: string[] },
      now: Date,
    ): Promise<{ subscription: NotificationSubscription; created: boolean }> {
      const [row] = await db
        .insert(notificationSubscriptions)
        .values({ userId, subscriptionType: 'item', ...input, isActive: true, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [notificationSubscriptions.userId, notificationSubscriptions.itemType, notificationSubscriptions.itemExternalId],
          set: { isActive: true, changeTypes: input.changeTypes, itemTitle: input.itemTitle, updatedAt: now },
        })
        .returning({ ...getTableColumns(notificationSubscriptions), created: sql<boolean>`(xmax = 0)` });
      const { created, ...saved } = returned(row);
      return { subscription: toSubscription(saved), created };
    },

    async removeOwn(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(notificationSubscriptions)
        .where(and(eq(notificationSubscriptions.id, id), eq(notificationSubscriptions.userId, userId)))
        .returning({ id: notificationSubscriptions.id });
      return rows.length > 0;
    },
  };
}
