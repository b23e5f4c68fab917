import { describe, expect, it } from '@jest/globals';
import { connectDatabase } from '../src/db/client.js';
import { reuseEnabled } from './db-reuse.js';
import { createTestDb, type TestDatabase } from './db.js';
import { createUser, insertMessage, insertRoadmapItem } from './factories.js';

/** The database's own id: a database reset for the next test keeps it (it is renamed), a new clone has another. */
async function oidOf(database: TestDatabase): Promise<number> {
  const { rows } = await database.pool.query<{ oid: number }>('SELECT oid::int AS oid FROM pg_database WHERE datname = current_database()');
  return rows[0]!.oid;
}

/** What a fresh clone holds beside its empty tables: the built-in roles, the data version, the migrations journal. */
async function seeded(database: TestDatabase) {
  const q = async (sql: string) => (await database.pool.query(sql)).rows;
  return {
    roles: await q('SELECT * FROM roles ORDER BY id'),
    dataVersion: await q('SELECT * FROM data_version'),
    journal: await q('SELECT * FROM drizzle.__drizzle_migrations ORDER BY id'),
    appState: await q('SELECT * FROM app_state ORDER BY key'),
  };
}

async function counts(database: TestDatabase) {
  const { rows } = await database.pool.query<{ items: number; users: number; sessions: number; history: number }>(
    `SELECT (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM sessions) AS sessions, (SELECT count(*)::int FROM item_history) AS history`,
  );
  return rows[0]!;
}

// Each test closes its first database before asking for the second, as consecutive tests do.
(reuseEnabled() ? describe : describe.skip)('a database a test closed, reset for the next test', () => {
  it('comes back under a new name with a fresh clone’s rows, ids and sequences', async () => {
    const first = await createTestDb();
    const before = await seeded(first);
    const user = await createUser(first.db, { email: 'first@example.com', roles: ['Admin'] });
    const item = await insertMessage(first.db);
    await insertRoadmapItem(first.db);
    await first.pool.query(`UPDATE roles SET description = 'changed' WHERE name = 'User'`);
    await first.pool.query(`INSERT INTO app_state (key, value) VALUES ('left-behind', '1')`);
    expect(await seeded(first)).not.toEqual(before);
    const oid = await oidOf(first);
    await first.close();

    const second = await createTestDb();
    try {
      expect(await oidOf(second)).toBe(oid);
      expect(second.name).not.toBe(first.name);
      expect(await counts(second)).toEqual({ items: 0, users: 0, sessions: 0, history: 0 });
      expect(await seeded(second)).toEqual(before);
      // The sequences start where the first database's did: the same ids for the same writes.
      expect((await createUser(second.db, { email: 'second@example.com', roles: ['Admin'] })).id).toBe(user.id);
      expect((await insertMessage(second.db)).id).toBe(item.id);
    } finally {
      await second.close();
    }
  });

  it('holds the same rows as a new clone made later, when no spare is left', async () => {
    const probe = await createTestDb();
    const { rows } = await probe.pool.query<{ oid: number }>('SELECT max(oid)::int AS oid FROM pg_database');
    const newest = rows[0]!.oid;
    await probe.close();
    const first = await createTestDb();
    await first.pool.query(`UPDATE roles SET description = 'changed' WHERE name = 'User'`);
    const firstOid = await oidOf(first);
    await first.close();
    // The spare just closed comes back first, reset; then the other spares, held open, until a new clone is made
    // (a database newer than every one there was): the process's built-in roles were seeded before it.
    const open = [await createTestDb()];
    try {
      const reset = open[0]!;
      expect(await oidOf(reset)).toBe(firstOid);
      for (let i = 0; i < 500 && (await oidOf(open.at(-1)!)) <= newest; i++) open.push(await createTestDb());
      const fresh = open.at(-1)!;
      expect(await oidOf(fresh)).toBeGreaterThan(newest);
      expect(await seeded(fresh)).toEqual(await seeded(reset));
    } finally {
      for (const database of open) await database.close();
    }
  });

  it('cannot be reached by a pool the last test left open on it', async () => {
    const first = await createTestDb();
    const stray = connectDatabase(first.url, undefined, { max: 1 });
    await stray.pool.query('SELECT 1');
    const oid = await oidOf(first);
    await first.close();
    const second = await createTestDb();
    try {
      expect(await oidOf(second)).toBe(oid);
      const write = () => stray.pool.query(`INSERT INTO app_state (key, value) VALUES ('stray', '1')`);
      await expect(write()).rejects.toThrow(/terminat|does not exist/);
      await expect(write()).rejects.toThrow(/does not exist/);
      expect((await second.pool.query('SELECT * FROM app_state')).rows).toEqual([]);
    } finally {
      await stray.close().catch(() => undefined);
      await second.close();
    }
  });

  it.each([
    ['its schema changed', 'CREATE TABLE left_behind (x int)'],
    ['a table was analyzed', 'ANALYZE items'],
    ['a table was vacuumed', 'VACUUM roles'],
    ['a temporary table was made', 'CREATE TEMP TABLE scratch (x int)'],
  ])('is not reused when %s: the next test gets a new clone', async (_what, statement) => {
    const first = await createTestDb();
    await insertMessage(first.db);
    const client = await first.pool.connect();
    await client.query(statement);
    client.release();
    const oid = await oidOf(first);
    await first.close();
    const second = await createTestDb();
    try {
      expect(await oidOf(second)).not.toBe(oid);
      const { rows } = await second.pool.query(`SELECT to_regclass('left_behind') AS t, (SELECT reltuples FROM pg_class WHERE relname = 'items') AS n`);
      expect(rows[0]).toEqual({ t: null, n: -1 });
    } finally {
      await second.close();
    }
  });

  it('is not reused when a table it wrote grew past what plans as an empty table', async () => {
    const first = await createTestDb();
    await first.pool.query(`INSERT INTO app_state (key, value) SELECT 'k' || i, to_jsonb(repeat('x', 200)) FROM generate_series(1, 400) i`);
    const oid = await oidOf(first);
    await first.close();
    const second = await createTestDb();
    try {
      expect(await oidOf(second)).not.toBe(oid);
      expect(await counts(second)).toMatchObject({ items: 0 });
    } finally {
      await second.close();
    }
  });
});
