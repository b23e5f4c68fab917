import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { items, itemTenants } from '../../db/schema/index.js';
import type { ItemSource } from './records.js';
import { chunks } from '../../lib/chunks.js';

/**
 * Which tenants received which posts and issues (item_tenants), as a tenant's Message Center and Service Health syncs
 * read and write them. A tenant's links of one source are that source's business only.
 */

/** The items of `source` the tenant received: item id → whether its feed still lists the item. */
export async function tenantLinks(db: DbOrTx, tenantId: number, source: ItemSource): Promise<Map<number, { expired: boolean }>> {
  const rows = await db
    .select({ itemId: itemTenants.itemId, expired: itemTenants.expired })
    .from(itemTenants)
    .innerJoin(items, eq(items.id, itemTenants.itemId))
    .where(and(eq(itemTenants.tenantId, tenantId), eq(items.source, source)));
  return new Map(rows.map((r) => [r.itemId, { expired: r.expired }]));
}

/** Of these posts, those another tenant's Message Center still lists. */
export async function liveElsewhere(db: DbOrTx, tenantId: number, itemIds: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks(itemIds, 5000)) {
    const rows = await db
      .selectDistinct({ itemId: itemTenants.itemId })
      .from(itemTenants)
      .where(and(inArray(itemTenants.itemId, part), ne(itemTenants.tenantId, tenantId), eq(itemTenants.expired, false)));
    for (const r of rows) found.add(r.itemId);
  }
  return found;
}

export interface TenantLinkRow {
  itemId: number;
  lastModifiedAt: Date | null;
  expired: boolean;
}

/** Records what the tenant's snapshot listed; first seen is kept from the first time. */
export async function upsertTenantLinks(db: DbOrTx, tenantId: number, rows: TenantLinkRow[], now: Date): Promise<void> {
  for (const part of chunks(rows, 2000)) {
    if (part.length === 0) continue;
    await db
      .insert(itemTenants)
      .values(part.map((r) => ({ itemId: r.itemId, tenantId, firstSeenAt: now, lastModifiedAt: r.lastModifiedAt, expired: r.expired })))
      .onConflictDoUpdate({
        target: [itemTenants.itemId, itemTenants.tenantId],
        set: { lastModifiedAt: sql`excluded.last_modified_at`, expired: sql`excluded.expired` },
      });
  }
}

/** The tenant's Message Center no longer lists these posts. */
export async function expireTenantLinks(db: DbOrTx, tenantId: number, itemIds: number[]): Promise<void> {
  for (const part of chunks(itemIds, 5000)) {
    await db
      .update(itemTenants)
      .set({ expired: true })
      .where(and(eq(itemTenants.tenantId, tenantId), inArray(itemTenants.itemId, part)));
  }
}

/** Items of `source` the tenant's feed lists now. */
export async function countTenantLive(db: DbOrTx, tenantId: number, source: ItemSource): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(itemTenants)
    .innerJoin(items, eq(items.id, itemTenants.itemId))
    .where(and(eq(itemTenants.tenantId, tenantId), eq(itemTenants.expired, false), eq(items.source, source)));
  return row?.n ?? 0;
}
