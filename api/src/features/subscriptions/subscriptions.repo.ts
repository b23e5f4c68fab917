import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { NotificationSubscription } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { items, notificationSubscriptions } from '../../db/schema/index.js';
import { returned } from '../../db/returned.js';

type Row = typeof notificationSubscriptions.$inferSelect;

export function toSubscription(row: Row): NotificationSubscription {
  return {
    id: row.id,
    subscriptionType: 'item',
    itemId: row.itemExternalId,
    itemType: row.itemType as NotificationSubscription['itemType'],
    itemTitle: row.itemTitle,
    changeTypes: row.changeTypes as NotificationSubscription['changeTypes'],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
  };
}

export function createSubscriptionsRepo(db: Db) {
  return {
    async listOwn(userId: number): Promise<NotificationSubscription[]> {
      const rows = await db
        .select()
        .from(notificationSubscriptions)
        .where(eq(notificationSubscriptions.userId, userId))
        .orderBy(desc(notificationSubscriptions.createdAt), desc(notificationSubscriptions.id));
      return rows.map(toSubscription);
    },

    /** The item the client names (case-insensitive id), including removed ones: a removed item can come back. */
    async findItem(itemType: 'roadmap' | 'message_center', externalId: string) {
      const [row] = await db
        .select({ externalId: items.externalId, title: items.title })
        .from(items)
        .where(and(eq(items.source, itemType === 'roadmap' ? 'roadmap' : 'messages'), sql`lower(${items.externalId}) = lower(${externalId})`))
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
