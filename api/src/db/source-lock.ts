import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { LOCK_KEYS, LOCK_NAMESPACE } from './advisory-locks.js';
import type { Db } from './client.js';
import * as schema from './schema/index.js';
import type { SourceName } from '../sources/types.js';

/** One advisory lock per source, in the product's namespace (db/advisory-locks.ts). */
const LOCK_KEY: Record<SourceName, number> = { roadmap: LOCK_KEYS.roadmapSync, message_center: LOCK_KEYS.messageCenterSync };

/**
 * Runs `fn` holding the source's session-level advisory lock on a dedicated connection, so two processes (or a job
 * and an admin trigger) never sync one source at once. Returns `{ locked: false }` without running `fn` when another
 * session holds it.
 */
export async function withSourceLock<T>(
  pool: pg.Pool,
  source: SourceName,
  fn: (db: Db) => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  const client = await pool.connect();
  const db = drizzle(client, { schema }) as unknown as Db;
  let locked = false;
  let broken = false;
  try {
    const lock = await db.execute<{ locked: boolean }>(sql`select pg_try_advisory_lock(${LOCK_NAMESPACE}, ${LOCK_KEY[source]}) as locked`);
    locked = lock.rows[0]?.locked === true;
    if (!locked) return { locked: false };
    return { locked: true, value: await fn(db) };
  } finally {
    if (locked) await db.execute(sql`select pg_advisory_unlock(${LOCK_NAMESPACE}, ${LOCK_KEY[source]})`).catch(() => (broken = true));
    // A connection whose unlock failed may still hold the lock: discard it rather than hand it to the next caller.
    client.release(broken);
  }
}
