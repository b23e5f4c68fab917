import { and, eq, inArray, like, lt, sql } from 'drizzle-orm';
import type { Source } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { appState, itemHistory, items, notificationSubscriptions, syncHistory, users } from '../../db/schema/index.js';
import { tenantCondition, type TenantScope } from '../items/item-query.js';

/** One history entry of a sync, with the item it belongs to. */
export interface SyncChangeRow {
  historyId: number;
  changeType: 'new' | 'changed' | 'removed';
  changeDate: Date;
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
  itemRowId: number;
  source: Source;
  externalId: string;
  title: string;
  status: string | null;
  /** A Message Center post's body as it is now (its sections go into the mail); null for roadmap items. */
  bodyHtml: string | null;
  /** The tenant whose run recorded the change (null: the roadmap, or a run of no tenant). */
  tenantId: number | null;
}

export interface SubscriberRow {
  subscriptionId: number;
  userId: number;
  email: string;
  firstName: string | null;
  itemType: string;
  itemExternalId: string;
  changeTypes: string[];
}

/** The item_history subscription type for an items.source. */
export const itemTypeOf = (source: Source): 'roadmap' | 'message_center' | 'service_health' =>
  source === 'roadmap' ? 'roadmap' : source === 'messages' ? 'message_center' : 'service_health';

const MARKER_PREFIX = 'notified-sync:';

export function createNotificationsRepo(db: DbOrTx) {
  return {
    /** What a sync changed, read back from item_history (so a re-run after a crash sees exactly the same diff). */
    async changesOfSync(syncId: number): Promise<SyncChangeRow[]> {
      return db
        .select({
          historyId: itemHistory.id,
          changeType: itemHistory.changeType,
          changeDate: itemHistory.changeDate,
          changedFields: itemHistory.changedFields,
          previousValues: itemHistory.previousValues,
          newValues: itemHistory.newValues,
          itemRowId: items.id,
          source: items.source,
          externalId: items.externalId,
          title: items.title,
          status: items.status,
          bodyHtml: items.bodyHtml,
          tenantId: syncHistory.tenantId,
        })
        .from(itemHistory)
        .innerJoin(items, eq(items.id, itemHistory.itemId))
        .leftJoin(syncHistory, eq(syncHistory.id, itemHistory.syncId))
        .where(and(eq(itemHistory.syncId, syncId), inArray(itemHistory.changeType, ['changed', 'removed'])))
        .orderBy(itemHistory.id);
    },

    /** Active item subscriptions (with the subscriber's address) of the given items. */
    async activeSubscribersOf(keys: { itemType: string; externalId: string }[]): Promise<SubscriberRow[]> {
      if (keys.length === 0) return [];
      const pairs = sql.join(
        keys.map((k) => sql`(${k.itemType}, ${k.externalId})`),
        sql`, `,
      );
      return db
        .select({
          subscriptionId: notificationSubscriptions.id,
          userId: users.id,
          email: users.email,
          firstName: users.firstName,
          itemType: notificationSubscriptions.itemType,
          itemExternalId: notificationSubscriptions.itemExternalId,
          changeTypes: notificationSubscriptions.changeTypes,
        })
        .from(notificationSubscriptions)
        .innerJoin(users, eq(users.id, notificationSubscriptions.userId))
        .where(
          and(
            eq(notificationSubscriptions.isActive, true),
            sql`(${notificationSubscriptions.itemType}, ${notificationSubscriptions.itemExternalId}) in (${pairs})`,
          ),
        )
        .orderBy(users.id, notificationSubscriptions.id);
    },

    /** Of these item rows, those a reader of the given tenant scope may see. */
    async visibleItemIds(itemRowIds: number[], scope: TenantScope): Promise<Set<number>> {
      const condition = tenantCondition(scope);
      if (itemRowIds.length === 0 || !condition) return new Set(itemRowIds);
      const rows = await db
        .select({ id: items.id })
        .from(items)
        .where(and(inArray(items.id, itemRowIds), condition));
      return new Set(rows.map((r) => r.id));
    },

    async isSyncNotified(syncId: number): Promise<boolean> {
      const rows = await db
        .select({ key: appState.key })
        .from(appState)
        .where(eq(appState.key, MARKER_PREFIX + syncId));
      return rows.length > 0;
    },

    /**
     * Claims a sync for notification inside the caller's transaction. False when another run claimed it first
     * (a concurrent run waits on the key until the first commits, then sees the conflict).
     */
    async claimSync(syncId: number, now: Date, value: Record<string, unknown>): Promise<boolean> {
      const rows = await db
        .insert(appState)
        .values({ key: MARKER_PREFIX + syncId, value, updatedAt: now })
        .onConflictDoNothing({ target: appState.key })
        .returning({ key: appState.key });
      return rows.length > 0;
    },

    /** Successful syncs since `since` that changed something: the candidates of the catch-up sweep. */
    async recentSyncsWithChanges(since: Date): Promise<number[]> {
      const rows = await db
        .select({ id: syncHistory.id })
        .from(syncHistory)
        .where(
          and(
            eq(syncHistory.status, 'success'),
            sql`${syncHistory.startedAt} >= ${since}`,
            sql`${syncHistory.changedItems} + ${syncHistory.removedItems} + ${syncHistory.restoredItems} > 0`,
          ),
        )
        .orderBy(syncHistory.id);
      return rows.map((r) => r.id);
    },

    async pruneMarkers(before: Date): Promise<number> {
      const rows = await db
        .delete(appState)
        .where(and(like(appState.key, `${MARKER_PREFIX}%`), lt(appState.updatedAt, before)))
        .returning({ key: appState.key });
      return rows.length;
    },

    /** Deactivates item subscriptions; returns the ones that were active. */
    async deactivateSubscriptions(ids: number[], now: Date): Promise<number> {
      if (ids.length === 0) return 0;
      const rows = await db
        .update(notificationSubscriptions)
        .set({ isActive: false, updatedAt: now })
        .where(and(inArray(notificationSubscriptions.id, ids), eq(notificationSubscriptions.isActive, true)))
        .returning({ id: notificationSubscriptions.id });
      return rows.length;
    },

    async subscriptionsByIds(ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: notificationSubscriptions.id,
          itemTitle: notificationSubscriptions.itemTitle,
          itemExternalId: notificationSubscriptions.itemExternalId,
          isActive: notificationSubscriptions.isActive,
        })
        .from(notificationSubscriptions)
        .where(inArray(notificationSubscriptions.id, ids));
    },
  };
}
