import pg from 'pg';
import { connectDatabase, type Database, type PoolOptions } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { seedBuiltInRoles } from '../src/db/seed.js';
import { databaseUrl, newDatabaseName, settleFreshClone, release, reuseEnabled, reuseSpare } from './db-reuse.js';

export interface TestDatabase extends Database {
  url: string;
  name: string;
}

/**
 * A fresh, migrated database for one test file or test: a database an earlier test of this process closed, reset
 * to what a new clone holds (test/db-reuse.ts), or else a clone of the run's template. Call close() when done.
 */
export async function createTestDb(pool: PoolOptions = { max: 5 }): Promise<TestDatabase> {
  const adminUrl = process.env.RADAR_TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error('RADAR_TEST_PG_ADMIN_URL is not set: run the tests through jest (test/global-setup.ts)');
  const reused = reuseEnabled() ? await reuseSpare(adminUrl, (url) => connectDatabase(url, undefined, pool), dropTestDatabase) : undefined;
  const name = reused?.name ?? newDatabaseName();
  const url = databaseUrl(adminUrl, name);
  const database = reused?.database ?? (await cloneTemplate(adminUrl, name, pool));
  let closed = false;
  return {
    ...database,
    url,
    name,
    close: async () => {
      if (closed) return;
      closed = true;
      await database.close();
      if (reuseEnabled()) release(name);
      else await dropTestDatabase(name);
    },
  };
}

/** A new clone of the run's template, with the built-in roles. */
async function cloneTemplate(adminUrl: string, name: string, pool: PoolOptions): Promise<Database> {
  await ensureDatabase(adminUrl, name, 'radar_template');
  const database = connectDatabase(databaseUrl(adminUrl, name), undefined, pool);
  await seedBuiltInRoles(database.db);
  if (reuseEnabled()) await settleFreshClone(database.pool);
  return database;
}

/** Drops a database a test made (connections still open to it are ended). */
export async function dropTestDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.RADAR_TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
