import { USAGE_WORKLOADS, type ListRelevance, type WorkloadUsage, type UsageWorkload } from '@radar/contracts';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { LOCK_KEYS, LOCK_NAMESPACE } from '../../db/advisory-locks.js';
import type { DbOrTx } from '../../db/client.js';
import { itemRelevance, items, relevanceLevelOf, tenants } from '../../db/schema/index.js';
import { visibleTenant, type TenantScope } from '../items/item-query.js';

/** What a tenant's relevance is computed from: its licences, whether its usage was read, its newest count per workload. */
export interface TenantInputs {
  id: number;
  licensedProducts: string[] | null;
  usageRead: boolean;
  usage: WorkloadUsage[];
}

/** An item relevance is computed for, and which tenants received it (a post; empty for a roadmap item, everyone's). */
export interface RelevanceItem {
  id: number;
  source: 'roadmap' | 'messages';
  products: string[];
  tenantIds: number[];
}

/** A stored row as it is compared and written (`level` as stored: 3 High … 0 Unknown). */
export interface RelevanceRow {
  itemId: number;
  tenantId: number;
  level: number;
  workload: string | null;
  activeUsers: number | null;
  share: number | null;
  reason: string;
}

/** One tenant's row of an item, as the dialog shows it. */
export interface TenantRelevanceRow extends RelevanceRow {
  tenantName: string;
  computedAt: Date;
}

/** Rows written per statement: 7 arrays of this many values, whatever the batch. */
const WRITE_BATCH = 5_000;

const ints = (values: readonly number[]) => sql`${sql.param([...values])}::integer[]`;

const r = alias(itemRelevance, 'r');
const t = alias(tenants, 't');
/** A row's columns as they are compared and written. */
const ROW = { itemId: r.itemId, tenantId: r.tenantId, level: r.level, workload: r.workload, activeUsers: r.activeUsers, share: r.share, reason: r.reason };

/** The tenants `r` of a reader's scope: not removed nor disabled, those the scope may see, of `among` when given. */
function readableTenant(scope: TenantScope, among: readonly number[] | undefined): SQL {
  const conds = [sql`t.removed_at IS NULL AND t.enabled`];
  if (scope !== 'all') conds.push(visibleTenant(scope));
  if (among?.length) conds.push(sql`t.id = ANY(${ints(among)})`);
  return sql.join(conds, sql` AND `);
}

/** Each item's relevance per tenant (item_relevance): what the refresh reads and writes, and what the list and dialog read. */
export function createRelevanceRepo(db: DbOrTx) {
  return {
    /** Holds each tenant's relevance-writes lock until the transaction ends, in id order (two refreshes never deadlock). */
    async lockTenants(tenantIds: readonly number[]): Promise<void> {
      if (!tenantIds.length) return;
      await db.execute(
        sql`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${LOCK_KEYS.relevanceWritesBase} + id) FROM (SELECT DISTINCT unnest(${ints(tenantIds)}) AS id ORDER BY 1) AS ids`,
      );
    },

    /** Every tenant's id, removed and disabled ones too (their rows are dropped by a refresh). */
    async allTenantIds(): Promise<number[]> {
      return (await db.select({ id: tenants.id }).from(tenants)).map((t) => t.id);
    },

    /**
     * The inputs of the tenants of `tenantIds` that are enabled and not removed. A removed or disabled tenant has none:
     * its rows go, as nothing of it is read any more (a disabled tenant's rows come back when it is enabled again).
     */
    async inputsOf(tenantIds: readonly number[]): Promise<TenantInputs[]> {
      if (!tenantIds.length) return [];
      const rows = await db
        .select({ id: tenants.id, licensedProducts: tenants.licensedProducts, usageAt: tenants.usageAt })
        .from(tenants)
        .where(and(inArray(tenants.id, [...tenantIds]), isNull(tenants.removedAt), eq(tenants.enabled, true)));
      if (!rows.length) return [];
      // The newest count of each workload (as the usage page shows it), of a window of days before a single day's (the
      // apps have both, and their 30-day count is what relevance means): a sort of one workload's 13 months at most.
      const { rows: usage } = await db.execute<{
        tenant_id: number;
        workload: string;
        active_users: number;
        licensed_users: number | null;
        period_days: number;
      }>(
        sql`SELECT t.id AS tenant_id, w.workload, u.active_users, u.licensed_users, u.period_days
          FROM unnest(${ints(rows.map((r) => r.id))}) AS t(id)
          CROSS JOIN unnest(${sql.param([...USAGE_WORKLOADS])}::text[]) AS w(workload)
          JOIN LATERAL (SELECT u.active_users, u.licensed_users, u.period_days FROM tenant_usage u
            WHERE u.tenant_id = t.id AND u.workload = w.workload ORDER BY u.period_days = 1, u.report_date DESC LIMIT 1) AS u ON true`,
      );
      const byTenant = new Map<number, WorkloadUsage[]>();
      for (const u of usage) {
        const list = byTenant.get(u.tenant_id) ?? [];
        list.push({ workload: u.workload as UsageWorkload, activeUsers: u.active_users, licensedUsers: u.licensed_users, periodDays: u.period_days });
        byTenant.set(u.tenant_id, list);
      }
      return rows.map((r) => ({ id: r.id, licensedProducts: r.licensedProducts, usageRead: r.usageAt !== null, usage: byTenant.get(r.id) ?? [] }));
    },

    /**
     * The items relevance is kept for, of `itemIds` when given: roadmap items (everyone's) and posts any of `tenantIds`
     * received, removed ones too (the archive and the triage views still list them). Service Health issues have none.
     */
    async itemsOf(tenantIds: readonly number[], itemIds: readonly number[] | null): Promise<RelevanceItem[]> {
      const rows = await db
        .select({ id: items.id, source: items.source, products: items.products, tenantIds: items.tenantIds })
        .from(items)
        .where(
          and(
            itemIds ? sql`${items.id} = ANY(${ints(itemIds)})` : undefined,
            sql`(${items.source} = 'roadmap' OR (${items.source} = 'messages' AND ${items.tenantIds} && ${ints(tenantIds)}))`,
          ),
        );
      return rows as RelevanceItem[];
    },

    /** The rows kept for `tenantIds` (of `itemIds` when given). */
    async stored(tenantIds: readonly number[], itemIds: readonly number[] | null): Promise<RelevanceRow[]> {
      if (!tenantIds.length) return [];
      return db
        .select(ROW)
        .from(r)
        .where(and(sql`${r.tenantId} = ANY(${ints(tenantIds)})`, itemIds ? sql`${r.itemId} = ANY(${ints(itemIds)})` : undefined));
    },

    /** Writes `rows` (new, or replacing the row of the same item and tenant), stamped `now`, in batches. */
    async write(rows: readonly RelevanceRow[], now: Date): Promise<void> {
      for (let i = 0; i < rows.length; i += WRITE_BATCH) {
        const batch = rows.slice(i, i + WRITE_BATCH);
        const column = <T>(pick: (r: RelevanceRow) => T) => sql.param(batch.map(pick));
        await db.execute(
          sql`INSERT INTO item_relevance (item_id, tenant_id, level, workload, active_users, share, reason, computed_at)
            SELECT *, ${now}::timestamptz FROM unnest(${column((r) => r.itemId)}::integer[], ${column((r) => r.tenantId)}::integer[],
              ${column((r) => r.level)}::smallint[], ${column((r) => r.workload)}::text[], ${column((r) => r.activeUsers)}::integer[],
              ${column((r) => r.share)}::real[], ${column((r) => r.reason)}::text[])
            ON CONFLICT (item_id, tenant_id) DO UPDATE SET level = excluded.level, workload = excluded.workload,
              active_users = excluded.active_users, share = excluded.share, reason = excluded.reason, computed_at = excluded.computed_at`,
        );
      }
    },

    /** Deletes the rows of these (item, tenant) pairs. */
    async remove(pairs: readonly { itemId: number; tenantId: number }[]): Promise<void> {
      for (let i = 0; i < pairs.length; i += WRITE_BATCH) {
        const batch = pairs.slice(i, i + WRITE_BATCH);
        await db.execute(
          sql`DELETE FROM item_relevance r USING unnest(${ints(batch.map((p) => p.itemId))}, ${ints(batch.map((p) => p.tenantId))}) AS gone(item_id, tenant_id)
            WHERE r.item_id = gone.item_id AND r.tenant_id = gone.tenant_id`,
        );
      }
    },

    /**
     * The list's page map: of each item, the highest level among the tenants of `scope` (those it may see, neither
     * removed nor disabled, of `among` when given), with its tenant (the first by name among equals) and reason. Items
     * with none are absent.
     */
    async highestOf(itemIds: readonly number[], scope: TenantScope, among: readonly number[] | undefined): Promise<Map<number, ListRelevance>> {
      if (!itemIds.length) return new Map();
      const rows = await db
        .selectDistinctOn([r.itemId], { itemId: r.itemId, level: r.level, tenantId: r.tenantId, reason: r.reason })
        .from(r)
        .innerJoin(t, eq(t.id, r.tenantId))
        .where(and(sql`${r.itemId} = ANY(${ints(itemIds)})`, readableTenant(scope, among)))
        .orderBy(r.itemId, desc(r.level), t.name, t.id);
      return new Map(rows.map((row) => [row.itemId, { level: relevanceLevelOf(row.level), tenantId: row.tenantId, reason: row.reason }]));
    },

    /** An item's row per tenant `scope` may see (not removed nor disabled), most relevant first, then by tenant name. */
    async ofItem(itemId: number, scope: TenantScope): Promise<TenantRelevanceRow[]> {
      return db
        .select({ ...ROW, tenantName: t.name, computedAt: r.computedAt })
        .from(r)
        .innerJoin(t, eq(t.id, r.tenantId))
        .where(and(eq(r.itemId, itemId), readableTenant(scope, undefined)))
        .orderBy(desc(r.level), t.name, t.id);
    },
  };
}

export type RelevanceRepo = ReturnType<typeof createRelevanceRepo>;
