import crypto from 'node:crypto';
import pg from 'pg';
import { connectDatabase, type Database, type PoolOptions } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { seedBuiltInRoles } from '../src/db/seed.js';

export interface TestDatabase extends Database {
  url: string;
  name: string;
}

/** A fresh, migrated database (cloned from the run's template) for one test file. Call close() in afterAll. */
export async function createTestDb(pool: PoolOptions = { max: 5 }): Promise<TestDatabase> {
  const adminUrl = process.env.RADAR_TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error('RADAR_TEST_PG_ADMIN_URL is not set: run the tests through jest (test/global-setup.ts)');
  const name = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name, 'radar_template');
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const database = connectDatabase(url, undefined, pool);
  await seedBuiltInRoles(database.db);
  return {
    ...database,
    url,
    name,
    close: async () => {
      await database.close();
      await dropTestDatabase(name);
    },
  };
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
