import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { ModerationUpdate, ModeratorActivity, ModeratorActivityRequest } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities } from '../../db/schema/index.js';
import { unifiedItemColumns, type UnifiedItemRow } from '../items/item-mapper.js';
import { returned } from '../../db/returned.js';
import type { AuditAction, CurationState } from './moderation-audit.js';
import { tenantCondition, type TenantScope } from '../items/item-query.js';

type Source = 'roadmap' | 'messages';
type ActivityRow = typeof moderatorActivities.$inferSelect;

/** A moderator_activities row as the contract's ModeratorActivity (the admin Activity tab reads the same shape). */
export function toModeratorActivity(row: ActivityRow): ModeratorActivity {
  return {
    id: row.id,
    userId: row.userId,
    userEmail: row.userEmail,
    actionType: row.actionType as ModeratorActivity['actionType'],
    itemType: row.itemType as ModeratorActivity['itemType'],
    itemId: row.itemId,
    itemTitle: row.itemTitle,
    details: row.details ?? null,
    timestamp: row.createdAt.toISOString(),
  };
}

const sameItem = (source: Source, externalId: string) => and(eq(items.source, source), sql`lower(${items.externalId}) = lower(${externalId})`);
/** The item as the caller may see it: a post of tenants outside their scope is no item. */
const sameVisibleItem = (source: Source, externalId: string, scope: TenantScope | undefined) =>
  and(sameItem(source, externalId), tenantCondition(scope) ?? undefined);

export function createModerationRepo(db: DbOrTx) {
  return {
    /**
     * The curation fields as stored, locked until the transaction ends (the save's "before"); undefined for an unknown
     * id and for a post of tenants the caller may not see (scope).
     */
    async lockCuration(source: Source, externalId: string, scope: TenantScope | undefined): Promise<CurationState | undefined> {
      const [row] = await db
        .select({ isFeatured: items.isFeatured, thirdPartyLinks: items.thirdPartyLinks, moderatorNotes: items.moderatorNotes })
        .from(items)
        .where(sameVisibleItem(source, externalId, scope))
        .for('update');
      return row;
    },

    /** Whether the caller (scope) may see the item: the activity record of an item they may not see is refused. */
    async isVisible(source: Source, externalId: string, scope: TenantScope | undefined): Promise<boolean> {
      const [row] = await db
        .select({ id: items.id })
        .from(items)
        .where(sameVisibleItem(source, externalId, scope))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Writes only the curation columns (a sync never touches them, and this never touches feed columns).
     * featuredAt is set when an item becomes featured, kept while it stays featured, cleared when unfeatured.
     * Returns undefined for an unknown id (ids compare case-insensitively: mc123 finds MC123).
     */
    async update(source: Source, externalId: string, input: ModerationUpdate, by: { email: string }, now: Date): Promise<UnifiedItemRow | undefined> {
      const notes = input.moderatorNotes.trim() ? input.moderatorNotes : null;
      const [row] = await db
        .update(items)
        .set({
          isFeatured: input.isFeatured,
          featuredAt: input.isFeatured ? sql`CASE WHEN ${items.isFeatured} AND ${items.featuredAt} IS NOT NULL THEN ${items.featuredAt} ELSE ${now} END` : null,
          thirdPartyLinks: input.thirdPartyLinks,
          moderatorNotes: notes,
          moderatedBy: by.email,
          moderatedAt: now,
        })
        .where(sameItem(source, externalId))
        .returning(unifiedItemColumns);
      return row;
    },

    /** The audit rows of one save, written by the server in the save's transaction. */
    async insertServerActivities(
      actions: AuditAction[],
      item: { itemType: 'roadmap' | 'message_center'; itemId: string; itemTitle: string },
      by: { id: number; email: string },
      now: Date,
    ): Promise<void> {
      if (actions.length === 0) return;
      await db.insert(moderatorActivities).values(
        actions.map((a) => ({
          userId: by.id,
          userEmail: by.email,
          ...item,
          actionType: a.actionType,
          details: a.details,
          recordedBy: 'server',
          createdAt: now,
        })),
      );
    },

    /** The user's activity rows for an item since `since`, newest first (the duplicate check of a client's record). */
    async recentActivities(by: { id: number }, item: { itemType: string; itemId: string }, since: Date): Promise<ActivityRow[]> {
      return db
        .select()
        .from(moderatorActivities)
        .where(
          and(
            eq(moderatorActivities.userId, by.id),
            eq(moderatorActivities.itemType, item.itemType),
            sql`lower(${moderatorActivities.itemId}) = lower(${item.itemId})`,
            gte(moderatorActivities.createdAt, since),
          ),
        )
        .orderBy(desc(moderatorActivities.createdAt), desc(moderatorActivities.id));
    },

    async recordClientActivity(
      input: ModeratorActivityRequest & { itemTitle: string },
      by: { id: number; email: string },
      now: Date,
    ): Promise<ModeratorActivity> {
      const [row] = await db
        .insert(moderatorActivities)
        .values({
          userId: by.id,
          userEmail: by.email,
          actionType: input.actionType,
          itemType: input.itemType,
          itemId: input.itemId,
          itemTitle: input.itemTitle,
          details: input.details ?? null,
          recordedBy: 'client',
          createdAt: now,
        })
        .returning();
      return toModeratorActivity(returned(row));
    },
  };
}
