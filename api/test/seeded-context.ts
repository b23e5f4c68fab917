import { afterAll } from '@jest/globals';
import type { Express } from 'express';
import request from 'supertest';
import { connectDatabase } from '../src/db/client.js';
import { contextOver, type TestContext, type TestContextOptions } from './context.js';
import { createTestDb, dropTestDatabase, type TestDatabase } from './db.js';
import { databaseUrl, endSessions, newDatabaseName, release, renameAway, resetToSnapshot, reuseEnabled, takeSnapshot, type Snapshot } from './db-reuse.js';

/**
 * A test file's set-up rows (users and their sessions, items, records) written once, and put back for each test: the
 * tests of a file that all start from the same rows no longer pay for writing them, nor for a database of their own.
 *
 * `seededContext(seed)` is called once at the top of a file. Each `context(env, opts)` is a new app (its own services,
 * clock and configuration, exactly as `createTestContext`) over a database holding the rows `seed` wrote, and the
 * seed's answer (ids, rows, session cookies; a copy per test). The first call makes the database and runs the seed;
 * once a test closes its context, its database is reset to the seed's rows as test/db-reuse.ts resets a spare
 * (sessions ended, renamed so nothing the test left behind reaches it, the same checks from PostgreSQL's statistics,
 * the written tables emptied and the seed's rows and sequences put back). A database that fails a check is dropped
 * and the next test gets a new one with the seed run again, as it does while a context is still open, and for every
 * test under `RADAR_TEST_FRESH_DB=1`.
 *
 * The seed gets a context of its own over the database (`options`: its configuration, clock and pool), whose app it
 * may use for requests that finish before it returns. Sign-ins are session rows (`seedSession` in test/factories.ts),
 * and each test makes its agents from the cookies with `cookieAgent(t.app, cookie)`.
 */
export function seededContext<T>(seed: (t: TestContext) => Promise<T>, options: SeedOptions = {}) {
  const poolOptions = options.pool ?? { max: 5 };
  /** The seed's app: over the seed's database, with the seed's configuration and clock; never closed (its pool is). */
  const seedOn = (database: TestDatabase) => seed(contextOver(database, options.env, { ...options, pool: poolOptions }));
  let kept: { name: string; seeded: T; snapshot: Snapshot; inUse: boolean } | undefined;
  const adminUrl = () => process.env.RADAR_TEST_PG_ADMIN_URL!;

  /** A database with the seed's rows, kept with their snapshot (every session on it ended). */
  async function seedNew(): Promise<void> {
    const database = await createTestDb(poolOptions);
    const seeded = await seedOn(database);
    await database.pool.end();
    await endSessions(adminUrl(), database.name);
    const reader = connectDatabase(database.url, undefined, { max: 1 });
    try {
      kept = { name: database.name, seeded, snapshot: await takeSnapshot(reader.pool), inUse: false };
    } finally {
      await reader.close();
      await endSessions(adminUrl(), database.name);
    }
  }

  /** The kept database, renamed and reset to the seed's rows, on a pool of its own; undefined when it cannot be. */
  async function resetKept(): Promise<TestDatabase | undefined> {
    if (!kept) return undefined;
    const from = kept.name;
    const name = newDatabaseName();
    const renamed = await renameAway(adminUrl(), from, name);
    if (renamed) {
      const database = connectDatabase(databaseUrl(adminUrl(), name), undefined, poolOptions);
      if (await resetToSnapshot(database.pool, kept.snapshot)) {
        kept.name = name;
        return wrap(database, name);
      }
      await database.close();
    }
    kept = undefined;
    await dropTestDatabase(renamed ? name : from);
    return undefined;
  }

  function wrap(database: ReturnType<typeof connectDatabase>, name: string): TestDatabase {
    let closed = false;
    return {
      ...database,
      name,
      url: databaseUrl(adminUrl(), name),
      close: async () => {
        if (closed) return;
        closed = true;
        await database.close();
        if (kept?.name === name) kept.inUse = false;
      },
    };
  }

  afterAll(async () => {
    if (!kept) return;
    const { name } = kept;
    kept = undefined;
    // Back to the process's spares, as a database no reset has checked yet: its next reset empties every table
    // ever written (the seed's too) and puts a fresh clone's rows back.
    await endSessions(adminUrl(), name);
    release(name);
  });

  return {
    /** A new app over a database holding the seed's rows, and the seed's answer. */
    async context(env: Record<string, string> = {}, opts: Omit<TestContextOptions, 'pool'> = {}): Promise<TestContext & { seeded: T }> {
      if (!reuseEnabled() || kept?.inUse) {
        // Another context of this file is open (or reuse is off): a database of its own, seeded as the kept one.
        const database = await createTestDb(poolOptions);
        const seeded = await seedOn(database);
        return { ...contextOver(database, env, { ...opts, pool: poolOptions }), seeded };
      }
      let database = kept ? await resetKept() : undefined;
      if (!database) {
        await seedNew();
        // Just seeded and snapshotted: no test has written it yet.
        database = wrap(connectDatabase(databaseUrl(adminUrl(), kept!.name), undefined, poolOptions), kept!.name);
      }
      kept!.inUse = true;
      return { ...contextOver(database, env, { ...opts, pool: poolOptions }), seeded: structuredClone(kept!.seeded) };
    },
  };
}

export interface SeedOptions extends TestContextOptions {
  /** The seed's configuration (a seed that writes through the app: an admin's request). */
  env?: Record<string, string>;
}

/** A supertest agent that sends a session cookie on every request, as a browser on our own pages does. */
export function cookieAgent(app: Express, cookie: string) {
  // A signed-in write without Origin or Sec-Fetch-Site is refused.
  return request.agent(app).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
}
