/**
 * Tenants for tests that check who sees what: rows written directly (no Graph, no admin flow), so a test states the
 * tenants, which posts each received and who was given which private tenant.
 */
import { and, eq } from 'drizzle-orm';
import crypto from 'node:crypto';
import type { Db } from '../src/db/client.js';
import { itemTenants, tenantAccess, tenants } from '../src/db/schema/index.js';

export async function insertTenant(db: Db, opts: { name: string; visibility: 'public' | 'private' }): Promise<{ id: number; name: string }> {
  const [row] = await db
    .insert(tenants)
    .values({ name: opts.name, directoryId: `${crypto.randomUUID()}`, visibility: opts.visibility, clientId: null, clientSecretSealed: null })
    .returning({ id: tenants.id, name: tenants.name });
  return row!;
}

/** The tenants that received an item (items.tenant_ids follows by trigger). */
export async function receivedBy(db: Db, itemRowId: number, tenantIds: number[], firstSeenAt = new Date('2026-01-01T00:00:00Z')): Promise<void> {
  await db.insert(itemTenants).values(tenantIds.map((tenantId) => ({ itemId: itemRowId, tenantId, firstSeenAt })));
}

export async function grantTenant(db: Db, userId: number, tenantId: number): Promise<void> {
  await db.insert(tenantAccess).values({ userId, tenantId }).onConflictDoNothing();
}

export async function revokeTenant(db: Db, userId: number, tenantId: number): Promise<void> {
  await db.delete(tenantAccess).where(and(eq(tenantAccess.userId, userId), eq(tenantAccess.tenantId, tenantId)));
}
