import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/**
 * The product's PostgreSQL advisory locks: one namespace (the first key of pg_advisory_lock's two-key form) and every
 * second key in one table, so two features can never take the same lock by accident. The values never change: during
 * a rolling upgrade the old and the new version must take the same locks.
 */
export const LOCK_NAMESPACE = 0x52414441;

export const LOCK_KEYS = {
  /** A sync of one source (sync/source-lock.ts). */
  roadmapSync: 1,
  messageCenterSync: 2,
  /**
   * The writes of a tenant's Message Center snapshot, held for its transaction: tenants fetch at once, but their
   * snapshots share posts, so they are applied one after the other (db/source-lock.ts: lockSharedWrites).
   */
  messageCenterWrites: 3,
  /** A tenant's Message Center sync takes this plus the tenant's id (ids stay far below the next range). */
  tenantMessageCenterSyncBase: 1_000_000,
  /** Service Health unscoped (never taken by a tenant's run), and a tenant's Service Health sync: this plus its id. */
  serviceHealthSync: 4,
  tenantServiceHealthSyncBase: 2_000_000,
  /**
   * The writes of a tenant's relevance rows (features/relevance): this plus the tenant's id, held for the refresh's
   * transaction, so a refresh of the tenant and a refresh of changed items never write one row from older inputs.
   */
  relevanceWritesBase: 3_000_000,
  /** Start-up schema work (db/schema-lock.ts). */
  migrations: 100,
  agendaSchema: 101,
  /** The tenant made from the GRAPH_* settings at start (features/tenants/environment-tenant.ts): made once. */
  environmentTenant: 102,
} as const;

/** Holds the lock `key` until the caller's transaction ends (other transactions asking for it wait). */
export async function lockForTransaction(tx: DbOrTx, key: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${key})`);
}
