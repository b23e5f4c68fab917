import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tenants, tenantUsage } from '../../db/schema/index.js';
import type { UsageReading } from '../../sources/usage-reports.js';

/** A day `days` before `now`, as the DATE a report is of (UTC). */
export const dayBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

export type UsageRow = typeof tenantUsage.$inferSelect;

/** Whether and when a tenant's usage was read, as kept on its row. */
export interface UsageStatus {
  usageAt: Date | null;
  usageTriedAt: Date | null;
  usageError: string | null;
  usagePermissionMissing: boolean;
}

/** Each tenant's usage counts per day and workload, and on its row whether they could be read. */
export function createUsageRepo(db: DbOrTx) {
  return {
    /**
     * Keeps a read's counts: a count of a day, workload and window already kept is replaced (a report read again), and
     * the tenant's counts of days before `keepSince` are dropped. Returns how many counts were written.
     */
    async store(tenantId: number, readings: UsageReading[], readAt: Date, keepSince: string): Promise<number> {
      if (readings.length > 0)
        await db
          .insert(tenantUsage)
          .values(readings.map((r) => ({ tenantId, ...r, readAt })))
          .onConflictDoUpdate({
            target: [tenantUsage.tenantId, tenantUsage.reportDate, tenantUsage.workload, tenantUsage.periodDays],
            set: { activeUsers: sql`excluded.active_users`, licensedUsers: sql`excluded.licensed_users`, readAt: sql`excluded.read_at` },
          });
      await db.delete(tenantUsage).where(and(eq(tenantUsage.tenantId, tenantId), lt(tenantUsage.reportDate, keepSince)));
      return readings.length;
    },

    /**
     * The newest count of each workload the tenant has one of: of a window of days when there is one (the apps' 30-day
     * count before their daily one), as relevance reads it.
     */
    async latest(tenantId: number): Promise<UsageRow[]> {
      return db
        .selectDistinctOn([tenantUsage.workload])
        .from(tenantUsage)
        .where(eq(tenantUsage.tenantId, tenantId))
        .orderBy(tenantUsage.workload, sql`${tenantUsage.periodDays} = 1`, desc(tenantUsage.reportDate));
    },

    /**
     * The tenant's counts of the days from `since` on, oldest first (then by workload), one series per workload: the
     * apps' daily counts (their chart is of people active each day), the others' 30-day counts.
     */
    async trend(tenantId: number, since: string): Promise<UsageRow[]> {
      return db
        .select()
        .from(tenantUsage)
        .where(
          and(
            eq(tenantUsage.tenantId, tenantId),
            gte(tenantUsage.reportDate, since),
            sql`(${tenantUsage.periodDays} = 1) = EXISTS (SELECT 1 FROM tenant_usage d WHERE d.tenant_id = ${tenantUsage.tenantId} AND d.workload = ${tenantUsage.workload} AND d.period_days = 1)`,
          ),
        )
        .orderBy(asc(tenantUsage.reportDate), asc(tenantUsage.workload));
    },

    async status(tenantId: number): Promise<UsageStatus | null> {
      const [row] = await db
        .select({
          usageAt: tenants.usageAt,
          usageTriedAt: tenants.usageTriedAt,
          usageError: tenants.usageError,
          usagePermissionMissing: tenants.usagePermissionMissing,
        })
        .from(tenants)
        .where(eq(tenants.id, tenantId));
      return row ?? null;
    },

    /** The outcome of a read: read (`error` null; partly read keeps the error of what failed) or not, and whether for want of the permission. */
    async setStatus(tenantId: number, outcome: { at: Date; read: boolean; error: string | null; permissionMissing: boolean }): Promise<void> {
      await db
        .update(tenants)
        .set({
          usageTriedAt: outcome.at,
          usageError: outcome.error,
          usagePermissionMissing: outcome.permissionMissing,
          ...(outcome.read ? { usageAt: outcome.at } : {}),
        })
        .where(eq(tenants.id, tenantId));
    },
  };
}

export type UsageRepo = ReturnType<typeof createUsageRepo>;
