import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { dashboardVisits } from '../../../db/schema/index.js';

export interface DashboardVisit {
  lastSeenAt: Date;
  /** The visit before the last recorded one; null until a second visit was recorded. */
  previousSeenAt: Date | null;
}

/** When each signed-in user last looked at the dashboard (the "since your last visit" baseline). */
export function createLastVisitRepo(db: DbOrTx) {
  async function find(userId: number): Promise<DashboardVisit | null> {
    const [row] = await db.select().from(dashboardVisits).where(eq(dashboardVisits.userId, userId));
    return row ? { lastSeenAt: row.lastSeenAt, previousSeenAt: row.previousSeenAt } : null;
  }

  return {
    find,

    /**
     * Records a look at `now`, at most once per `minIntervalMs`: the first look creates the row; a look at least
     * that long after the recorded one moves the recorded one to `previousSeenAt` and stores `now`; a look sooner
     * changes nothing (reloads and route changes keep their baseline, and the table sees a few writes per user
     * per hour at most). One statement, so two tabs cannot both move the baseline.
     */
    async record(userId: number, now: Date, minIntervalMs: number): Promise<DashboardVisit> {
      const threshold = new Date(now.getTime() - minIntervalMs);
      const [moved] = await db
        .insert(dashboardVisits)
        .values({ userId, lastSeenAt: now, previousSeenAt: null })
        .onConflictDoUpdate({
          target: dashboardVisits.userId,
          set: { previousSeenAt: sql`${dashboardVisits.lastSeenAt}`, lastSeenAt: now },
          setWhere: sql`${dashboardVisits.lastSeenAt} <= ${threshold}`,
        })
        .returning();
      if (moved) return { lastSeenAt: moved.lastSeenAt, previousSeenAt: moved.previousSeenAt };
      const current = await find(userId);
      if (!current) throw new Error(`dashboard visit of user ${userId} vanished`);
      return current;
    },
  };
}
export type LastVisitRepo = ReturnType<typeof createLastVisitRepo>;

/**
 * What "since your last visit" counts from: the previous visit; on the first one (no previous yet) the first visit
 * itself; for a user who never opened the dashboard, now (so nothing counts as new).
 */
export function visitBaseline(visit: DashboardVisit | null, now: Date): Date {
  return visit ? (visit.previousSeenAt ?? visit.lastSeenAt) : now;
}
