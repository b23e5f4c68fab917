import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { LOCK_KEYS, LOCK_NAMESPACE, lockForTransaction } from './advisory-locks.js';
import type { Db, DbOrTx } from './client.js';
import * as schema from './schema/index.js';
import type { SourceName } from '../sources/types.js';

/** One advisory lock per source, and per tenant for a tenant's Message Center, in the product's namespace. */
const LOCK_KEY: Record<SourceName, number> = {
  roadmap: LOCK_KEYS.roadmapSync,
  message_center: LOCK_KEYS.messageCenterSync,
  service_health: LOCK_KEYS.serviceHealthSync,
};
const TENANT_BASE: Record<SourceName, number> = {
  roadmap: LOCK_KEYS.roadmapSync,
  message_center: LOCK_KEYS.tenantMessageCenterSyncBase,
  service_health: LOCK_KEYS.tenantServiceHealthSyncBase,
};
const lockKeyOf = (source: SourceName, tenantId?: number) => (tenantId !== undefined ? TENANT_BASE[source] + tenantId : LOCK_KEY[source]);

/**
 * Runs `fn` holding the source's session-level advisory lock on a dedicated connection, so two processes (or a job
 * and an admin trigger) never sync one source at once. Returns `{ locked: false }` without running `fn` when another
 * session holds it.
 */
export async function withSourceLock<T>(
  pool: pg.Pool,
  source: SourceName,
  fn: (db: Db) => Promise<T>,
  tenantId?: number,
): Promise<{ locked: true; value: T } | { locked: false }> {
  const key = lockKeyOf(source, tenantId);
  const client = await pool.connect();
  const db = drizzle(client, { schema }) as unknown as Db;
  let locked = false;
  let broken = false;
  try {
    const lock = await db.execute<{ locked: boolean }>(sql`select pg_try_advisory_lock(${LOCK_NAMESPACE}, ${key}) as locked`);
    locked = lock.rows[0]?.locked === true;
    if (!locked) return { locked: false };
    return { locked: true, value: await fn(db) };
  } finally {
    if (locked) await db.execute(sql`select pg_advisory_unlock(${LOCK_NAMESPACE}, ${key})`).catch(() => (broken = true));
    // A connection whose unlock failed may still hold the lock: discard it rather than hand it to the next caller.
    client.release(broken);
  }
}

/**
 * Held until the caller's transaction ends: the writes of snapshots that share rows (tenants' Message Center posts)
 * are applied one after the other, while their fetches run at once.
 */
export async function lockSharedWrites(tx: DbOrTx): Promise<void> {
  await lockForTransaction(tx, LOCK_KEYS.messageCenterWrites);
}
