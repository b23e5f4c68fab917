import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AlertScope, SavedSearch } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { savedSearchChannels, savedSearches } from '../../db/schema/index.js';
import { visibleTo, type Viewer } from './channels.repo.js';

export type SavedSearchRow = typeof savedSearches.$inferSelect;
export type SavedSearchWithChannels = SavedSearchRow & { channelIds: number[] };

export function toSavedSearch(row: SavedSearchWithChannels): SavedSearch {
  return {
    id: row.id,
    scope: row.scope,
    name: row.name,
    query: row.query as SavedSearch['query'],
    alertOn: row.alertOn as SavedSearch['alertOn'],
    schedule: row.schedule,
    hour: row.hour,
    weekday: row.weekday,
    timeZone: row.timeZone,
    channelIds: row.channelIds,
    paused: row.paused,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastDigestAt: row.lastDigestAt?.toISOString() ?? null,
  };
}

export function createSavedSearchesRepo(db: DbOrTx) {
  async function withChannels(rows: SavedSearchRow[]): Promise<SavedSearchWithChannels[]> {
    if (rows.length === 0) return [];
    const links = await db
      .select()
      .from(savedSearchChannels)
      .where(
        inArray(
          savedSearchChannels.savedSearchId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(savedSearchChannels.channelId);
    return rows.map((r) => ({ ...r, channelIds: links.filter((l) => l.savedSearchId === r.id).map((l) => l.channelId) }));
  }

  return {
    withChannels,

    async listVisible(v: Viewer): Promise<SavedSearchWithChannels[]> {
      const rows = await db.select().from(savedSearches).where(visibleTo(v, savedSearches)).orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
      return withChannels(rows);
    },

    async findVisible(v: Viewer, id: number): Promise<SavedSearchWithChannels | null> {
      const rows = await db
        .select()
        .from(savedSearches)
        .where(and(eq(savedSearches.id, id), visibleTo(v, savedSearches)));
      return (await withChannels(rows))[0] ?? null;
    },

    async byIds(ids: number[]): Promise<SavedSearchRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(savedSearches).where(inArray(savedSearches.id, ids));
    },

    async count(scope: AlertScope, userId: number): Promise<number> {
      const where =
        scope === 'organisation' ? eq(savedSearches.scope, 'organisation') : and(eq(savedSearches.scope, 'personal'), eq(savedSearches.ownerUserId, userId));
      const [row] = await db.select({ n: count() }).from(savedSearches).where(where);
      return row?.n ?? 0;
    },

    async insert(values: typeof savedSearches.$inferInsert, channelIds: number[]): Promise<number> {
      const { id } = returned((await db.insert(savedSearches).values(values).returning({ id: savedSearches.id }))[0]);
      await this.setChannels(id, channelIds);
      return id;
    },

    async update(id: number, set: Partial<typeof savedSearches.$inferInsert>, channelIds: number[]): Promise<void> {
      await db.update(savedSearches).set(set).where(eq(savedSearches.id, id));
      await this.setChannels(id, channelIds);
    },

    async setChannels(id: number, channelIds: number[]): Promise<void> {
      await db.delete(savedSearchChannels).where(eq(savedSearchChannels.savedSearchId, id));
      if (channelIds.length) await db.insert(savedSearchChannels).values(channelIds.map((channelId) => ({ savedSearchId: id, channelId })));
    },

    async remove(id: number): Promise<void> {
      await db.delete(savedSearches).where(eq(savedSearches.id, id));
    },

    /** Stops one channel for some saved searches (the e-mail unsubscribe link); returns how many links were removed. */
    async unlinkChannel(savedSearchIds: number[], channelId: number): Promise<number> {
      if (savedSearchIds.length === 0) return 0;
      const rows = await db
        .delete(savedSearchChannels)
        .where(and(inArray(savedSearchChannels.savedSearchId, savedSearchIds), eq(savedSearchChannels.channelId, channelId)))
        .returning({ id: savedSearchChannels.savedSearchId });
      return rows.length;
    },

    /** Active saved searches of a schedule, each with the channels it sends to (paused channels included: held). */
    async activeWithSchedule(schedule: SavedSearchRow['schedule']): Promise<SavedSearchWithChannels[]> {
      const rows = await db
        .select()
        .from(savedSearches)
        .where(
          and(
            eq(savedSearches.schedule, schedule),
            eq(savedSearches.paused, false),
            sql`EXISTS (SELECT 1 FROM saved_search_channels c WHERE c.saved_search_id = ${savedSearches.id})`,
          ),
        )
        .orderBy(savedSearches.id);
      return withChannels(rows);
    },

    /**
     * Claims a digest slot inside the caller's transaction: true for exactly one caller per search and slot, even with
     * two job processes (the row lock serialises them; the second sees last_digest_at = slot and updates nothing).
     */
    async claimDigestSlot(id: number, slot: Date): Promise<boolean> {
      const rows = await db
        .update(savedSearches)
        .set({ lastDigestAt: slot })
        .where(and(eq(savedSearches.id, id), sql`(${savedSearches.lastDigestAt} IS NULL OR ${savedSearches.lastDigestAt} < ${slot})`))
        .returning({ id: savedSearches.id });
      return rows.length > 0;
    },
  };
}
