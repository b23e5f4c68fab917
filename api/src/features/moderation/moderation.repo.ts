import { and, eq, sql } from 'drizzle-orm';
import type { ModerationUpdate, ModeratorActivity, ModeratorActivityRequest } from '@radar/contracts';
import type { Db } from '../../db/client.js';
import { items, moderatorActivities } from '../../db/schema.js';
import { unifiedItemColumns, type UnifiedItemRow } from '../items/item-mapper.js';
import { returned } from '../../db/returned.js';

type Source = 'roadmap' | 'messages';

/** A moderator_activities row as the contract's ModeratorActivity (the admin Activity tab reads the same shape). */
export function toModeratorActivity(row: typeof moderatorActivities.$inferSelect): ModeratorActivity {
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

export function createModerationRepo(db: Db) {
  return {
    /**
     * Writes only the curation columns (a sync never touches them, and this never touches feed columns).
     * featuredAt is set when an item becomes featured, kept while it stays featured, cleared when unfeatured.
     * Returns undefined for an unknown id (ids compare case-insensitively: mc123 finds MC123).
     */
    async update(
      source: Source,
      externalId: string,
      input: ModerationUpdate,
      by: { email: string },
      now: Date,
    ): Promise<UnifiedItemRow | undefined> {
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
        .where(and(eq(items.source, source), sql`lower(${items.externalId}) = lower(${externalId})`))
        .returning(unifiedItemColumns);
      return row;
    },

    async recordActivity(
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
          createdAt: now,
        })
        .returning();
      return toModeratorActivity(returned(row));
    },
  };
}
