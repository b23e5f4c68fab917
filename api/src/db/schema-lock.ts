import type pg from 'pg';
import { LOCK_NAMESPACE } from './advisory-locks.js';

/**
 * Runs `fn` holding a session-level advisory lock on `client`, waiting for it as long as another session holds it.
 *
 * Schema changes at start-up (our migrations, Agenda's table, function and trigger) are not safe to run from two
 * processes at once: `CREATE OR REPLACE FUNCTION` and drizzle's migrator both fail in the second session when two
 * replicas start together (duplicate key in pg_proc, a table that already exists), and the process exits. Whoever
 * comes second waits, then finds nothing to do.
 */
export async function withSchemaLock<T>(client: pg.ClientBase, key: number, fn: () => Promise<T>): Promise<T> {
  await client.query('select pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, key]);
  try {
    return await fn();
  } finally {
    // A failed unlock leaves the lock to the session's end; every caller ends or releases its connection next.
    await client.query('select pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, key]).catch(() => undefined);
  }
}
