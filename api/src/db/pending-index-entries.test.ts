import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import pg from 'pg';
import { createTestDb, type TestDatabase } from '../../test/db.js';
import { insertRoadmapItem } from '../../test/factories.js';
import { captureLog } from '../../test/log-capture.js';
import { mergePendingItemPages } from '../../test/pending-index.js';
import { connectDatabase } from './client.js';
import { mergePendingItemIndexEntries } from './pending-index-entries.js';

let database: TestDatabase;
// A role that may read and write items but does not own their indexes (a database set up by someone else).
const role = `radar_not_owner_${crypto.randomBytes(4).toString('hex')}`;
beforeAll(async () => {
  database = await createTestDb();
  await database.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'not-owner'`);
  await database.pool.query(`GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO ${role}`);
});
afterAll(async () => {
  // The role's privileges go with it (a closed test database may live on, reset for the next test).
  await database.pool.query(`DROP OWNED BY ${role}`);
  await database.close();
  const admin = new pg.Client({ connectionString: process.env.RADAR_TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS ${role}`).finally(() => admin.end());
});

describe('merging the pending entries of the items indexes', () => {
  it('merges what writes left pending and says how many pages it merged', async () => {
    for (let i = 0; i < 20; i++) await insertRoadmapItem(database.db, { title: `Pending entry ${i}`, tags: ['Planner'] });
    const { log, lines } = captureLog();
    expect(await mergePendingItemIndexEntries(database.db, log)).toBeGreaterThan(0);
    expect(await mergePendingItemPages(database.pool)).toBe(0);
    expect(await mergePendingItemIndexEntries(database.db, log)).toBe(0);
    expect(lines).toEqual([]);
  });

  it('never fails its caller when the role does not own the indexes, and says so once', async () => {
    await insertRoadmapItem(database.db, { title: 'Written by another role later' });
    const url = new URL(database.url);
    url.username = role;
    url.password = 'not-owner';
    const other = connectDatabase(url.toString(), undefined, { max: 1 });
    try {
      const { log, lines } = captureLog();
      expect(await mergePendingItemIndexEntries(other.db, log)).toBe(0);
      expect(await mergePendingItemIndexEntries(other.db, log)).toBe(0);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: expect.stringMatching(/does not own the items indexes/) });
      // What it could not merge is still there for the owner (or autovacuum).
      expect(await mergePendingItemPages(database.pool)).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});
