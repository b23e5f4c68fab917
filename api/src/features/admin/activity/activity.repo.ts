import { desc, sql } from 'drizzle-orm';
import type { ModeratorActivityStats } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';
import { moderatorActivities } from '../../../db/schema/index.js';
import { toModeratorActivity } from '../../curation/moderation.repo.js';

const RECENT_DAYS = 7;

export function createActivityRepo(db: DbOrTx) {
  return {
    /** Newest first; `totalPages` is at least 1 so an empty feed still reads "page 1 of 1". */
    async page(page: number, limit: number) {
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(moderatorActivities)
          .orderBy(desc(moderatorActivities.createdAt), desc(moderatorActivities.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ n: sql<number>`count(*)::int` }).from(moderatorActivities),
      ]);
      const total = count?.n ?? 0;
      return { activities: rows.map(toModeratorActivity), total, page, totalPages: Math.max(1, Math.ceil(total / limit)) };
    },

    /** recentActivity counts the last 7 days up to `now` (the injected clock). */
    async stats(now: Date): Promise<ModeratorActivityStats> {
      const since = new Date(now.getTime() - RECENT_DAYS * 24 * 60 * 60 * 1000);
      const t = moderatorActivities;
      const [row] = await db
        .select({
          totalActivities: sql<number>`count(*)::int`,
          featuredItems: sql<number>`count(*) FILTER (WHERE ${t.actionType} = 'featured')::int`,
          linksAdded: sql<number>`count(*) FILTER (WHERE ${t.actionType} = 'link_added')::int`,
          notesAdded: sql<number>`count(*) FILTER (WHERE ${t.actionType} = 'note_added')::int`,
          recentActivity: sql<number>`count(*) FILTER (WHERE ${t.createdAt} >= ${since} AND ${t.createdAt} <= ${now})::int`,
        })
        .from(t);
      return {
        totalActivities: row?.totalActivities ?? 0,
        featuredItems: row?.featuredItems ?? 0,
        linksAdded: row?.linksAdded ?? 0,
        notesAdded: row?.notesAdded ?? 0,
        recentActivity: row?.recentActivity ?? 0,
      };
    },
  };
}
