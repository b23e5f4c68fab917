import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { items, itemTenants, syncHistory, tenantAccess, tenants, type TenantRow } from '../../db/schema/index.js';
import { chunks } from '../../lib/chunks.js';
import type { TenantScope } from './tenant-audience.js';

/** The tenants a caller's scope lets them see: every one, or the public ones and those granted (a guest: public). */
function visibleTo(scope: TenantScope | undefined) {
  if (scope === 'all') return undefined;
  const granted = [...(scope?.granted ?? [])];
  return or(eq(tenants.visibility, 'public'), granted.length ? inArray(tenants.id, granted) : undefined);
}

/** Tenants, their posts and who may see the private ones. */
export function createTenantsRepo(db: DbOrTx) {
  return {
    /** Tenants not removed, in name order. */
    async list(): Promise<TenantRow[]> {
      return db.select().from(tenants).where(isNull(tenants.removedAt)).orderBy(tenants.name, tenants.id);
    },
    async get(id: number): Promise<TenantRow | null> {
      const [row] = await db
        .select()
        .from(tenants)
        .where(and(eq(tenants.id, id), isNull(tenants.removedAt)));
      return row ?? null;
    },
    async enabled(): Promise<TenantRow[]> {
      return db
        .select()
        .from(tenants)
        .where(and(isNull(tenants.removedAt), eq(tenants.enabled, true)))
        .orderBy(tenants.id);
    },
    async byDirectoryId(directoryId: string): Promise<TenantRow | null> {
      const [row] = await db
        .select()
        .from(tenants)
        .where(and(sql`lower(${tenants.directoryId}) = lower(${directoryId})`, isNull(tenants.removedAt)));
      return row ?? null;
    },
    async byName(name: string): Promise<TenantRow | null> {
      const [row] = await db
        .select()
        .from(tenants)
        .where(and(sql`lower(${tenants.name}) = lower(${name})`, isNull(tenants.removedAt)));
      return row ?? null;
    },
    async insert(values: typeof tenants.$inferInsert): Promise<TenantRow> {
      // Triage starts when the tenant is added (the clock's now, which the caller passes as createdAt).
      const [row] = await db
        .insert(tenants)
        .values({ triageStart: values.createdAt, ...values })
        .returning();
      return returned(row);
    },
    async update(id: number, set: Partial<typeof tenants.$inferInsert>): Promise<TenantRow | null> {
      const [row] = await db
        .update(tenants)
        .set(set)
        .where(and(eq(tenants.id, id), isNull(tenants.removedAt)))
        .returning();
      return row ?? null;
    },
    /** Posts the tenant lists now and all it ever received, per tenant. */
    /** Per tenant: the Message Center posts it received (and of them those it still lists), and its Service Health issues. */
    async postCounts(): Promise<Map<number, { livePosts: number; posts: number; issues: number }>> {
      const rows = await db
        .select({
          tenantId: itemTenants.tenantId,
          posts: sql<number>`count(*) FILTER (WHERE ${items.source} = 'messages')::int`,
          livePosts: sql<number>`count(*) FILTER (WHERE ${items.source} = 'messages' AND NOT ${itemTenants.expired})::int`,
          issues: sql<number>`count(*) FILTER (WHERE ${items.source} = 'health')::int`,
        })
        .from(itemTenants)
        .innerJoin(items, eq(items.id, itemTenants.itemId))
        .groupBy(itemTenants.tenantId);
      return new Map(rows.map((r) => [r.tenantId, { livePosts: r.livePosts, posts: r.posts, issues: r.issues }]));
    },
    /** Each service's health now, as the tenant's last Service Health run read it. */
    async setHealthOverview(id: number, overview: { service: string; status: string }[], now: Date): Promise<void> {
      await db.update(tenants).set({ healthOverview: overview, healthOverviewAt: now }).where(eq(tenants.id, id));
    },
    /** The plans and products the tenant licenses as just read, or why they could not be read (those read before are kept). */
    async setLicences(id: number, read: { plans: string[]; products: string[] } | { error: string }, now: Date): Promise<void> {
      await db
        .update(tenants)
        .set(
          'products' in read
            ? { licensedPlans: read.plans, licensedProducts: read.products, licencesAt: now, licencesError: null }
            : { licencesError: read.error },
        )
        .where(eq(tenants.id, id));
    },
    /** Every tenant's licensed products again from its plans as read (after an admin changed which plans license what). */
    async relicense(productsOf: (plans: string[]) => string[]): Promise<void> {
      const rows = await db
        .select({ id: tenants.id, plans: tenants.licensedPlans })
        .from(tenants)
        .where(sql`${tenants.licensedPlans} IS NOT NULL`);
      for (const row of rows)
        await db
          .update(tenants)
          .set({ licensedProducts: productsOf(row.plans ?? []) })
          .where(eq(tenants.id, row.id));
    },
    /** The last run of each tenant's feed (Message Center, Service Health), and its last successful one: `<tenantId>:<source>` → runs. */
    async lastRuns(): Promise<Map<string, { last: typeof syncHistory.$inferSelect; lastSuccessAt: Date | null }>> {
      const last = await db
        .selectDistinctOn([syncHistory.tenantId, syncHistory.source])
        .from(syncHistory)
        .where(sql`${syncHistory.tenantId} IS NOT NULL AND ${syncHistory.status} <> 'running'`)
        .orderBy(syncHistory.tenantId, syncHistory.source, desc(syncHistory.startedAt), desc(syncHistory.id));
      const success = await db
        .select({ tenantId: syncHistory.tenantId, source: syncHistory.source, at: sql<Date>`max(${syncHistory.startedAt})` })
        .from(syncHistory)
        .where(sql`${syncHistory.tenantId} IS NOT NULL AND ${syncHistory.status} IN ('success', 'unchanged')`)
        .groupBy(syncHistory.tenantId, syncHistory.source);
      const successAt = new Map(success.map((r) => [`${r.tenantId}:${r.source}`, r.at ? new Date(r.at) : null]));
      return new Map(
        last.flatMap((r) => {
          const key = `${r.tenantId}:${r.source}`;
          return r.tenantId === null ? [] : [[key, { last: r, lastSuccessAt: successAt.get(key) ?? null }] as const];
        }),
      );
    },
    /**
     * Removes a tenant. Keeping its posts: the row stays without credentials, disabled and marked removed, so the posts
     * stay attributed to it. Deleting them: the posts no other tenant received are deleted with their history, then
     * the tenant. Returns how many posts were deleted.
     */
    async remove(id: number, deletePosts: boolean, now: Date): Promise<number> {
      if (!deletePosts) {
        await db
          .update(tenants)
          .set({ clientId: null, clientSecretSealed: null, secretExpiresOn: null, enabled: false, removedAt: now, updatedAt: now })
          .where(eq(tenants.id, id));
        return 0;
      }
      const own = await db.execute<{ item_id: number }>(sql`
        SELECT it.item_id FROM item_tenants it
        WHERE it.tenant_id = ${id}
          AND NOT EXISTS (SELECT 1 FROM item_tenants o WHERE o.item_id = it.item_id AND o.tenant_id <> ${id})`);
      const ids = own.rows.map((r) => Number(r.item_id));
      for (const part of chunks(ids, 5000)) await db.delete(items).where(inArray(items.id, part));
      await db.delete(tenants).where(eq(tenants.id, id));
      return ids.length;
    },
    /** Attributes every Message Center post no tenant holds yet to this tenant (the upgrade from one tenant). */
    async adoptUnattributedPosts(tenantId: number): Promise<number> {
      const result = await db.execute(sql`
        INSERT INTO item_tenants (item_id, tenant_id, first_seen_at, last_modified_at, expired)
        SELECT i.id, ${tenantId}, coalesce(i.first_seen_at, i.created_date, now()), i.modified_date, i.is_removed
        FROM items i
        WHERE i.source = 'messages' AND NOT i.is_demo
          AND NOT EXISTS (SELECT 1 FROM item_tenants t WHERE t.item_id = i.id)
        ON CONFLICT DO NOTHING`);
      return result.rowCount ?? 0;
    },
    /**
     * The tenants a caller may see, by name: all, or the public ones and those granted; removed tenants (their posts
     * stay attributed to them) only when asked.
     */
    async visible(scope: TenantScope | undefined, opts: { includeRemoved?: boolean } = {}): Promise<{ id: number; name: string }[]> {
      return db
        .select({ id: tenants.id, name: tenants.name })
        .from(tenants)
        .where(and(opts.includeRemoved ? undefined : isNull(tenants.removedAt), visibleTo(scope)))
        .orderBy(tenants.name);
    },
    /** The tenants that received a post, with the caller's scope applied (removed tenants too: the post stays attributed). */
    async ofItem(itemId: number, scope: TenantScope | undefined) {
      return db
        .select({
          id: tenants.id,
          name: tenants.name,
          firstSeen: itemTenants.firstSeenAt,
          lastModified: itemTenants.lastModifiedAt,
          expired: itemTenants.expired,
        })
        .from(itemTenants)
        .innerJoin(tenants, eq(tenants.id, itemTenants.tenantId))
        .where(and(eq(itemTenants.itemId, itemId), visibleTo(scope)))
        .orderBy(tenants.name);
    },
    /** Every user's grants, by user. */
    async allAccess(): Promise<{ userId: number; tenantIds: number[] }[]> {
      const rows = await db.select().from(tenantAccess).orderBy(tenantAccess.userId, tenantAccess.tenantId);
      const byUser = new Map<number, number[]>();
      for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r.tenantId]);
      return [...byUser].map(([userId, tenantIds]) => ({ userId, tenantIds }));
    },
    /** The private tenants a user was given. */
    async accessOf(userId: number): Promise<number[]> {
      const rows = await db.select({ tenantId: tenantAccess.tenantId }).from(tenantAccess).where(eq(tenantAccess.userId, userId));
      return rows.map((r) => r.tenantId).sort((a, b) => a - b);
    },
    async setAccess(userId: number, tenantIds: number[]): Promise<void> {
      await db.delete(tenantAccess).where(eq(tenantAccess.userId, userId));
      if (tenantIds.length) await db.insert(tenantAccess).values(tenantIds.map((tenantId) => ({ userId, tenantId })));
    },
  };
}

export type TenantsRepo = ReturnType<typeof createTenantsRepo>;
