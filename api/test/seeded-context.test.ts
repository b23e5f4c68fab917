import { describe, expect, it } from '@jest/globals';
import { reuseEnabled } from './db-reuse.js';
import { insertMessage, seedSession } from './factories.js';
import { cookieAgent, seededContext } from './seeded-context.js';

const oidOf = async (pool: { query: (sql: string) => Promise<{ rows: { oid: number }[] }> }) =>
  (await pool.query('SELECT oid::int AS oid FROM pg_database WHERE datname = current_database()')).rows[0]!.oid;

(reuseEnabled() ? describe : describe.skip)('a seeded context', () => {
  let seeds = 0;
  let firstName = '';
  const seeded = seededContext(
    async ({ app, database: { db } }) => {
      seeds += 1;
      const alice = await seedSession(db, { email: 'alice@example.com', roles: ['Admin'] });
      const item = await insertMessage(db, { externalId: 'MC700001' });
      // A request through the seed's own app, as a seed that adds a tenant makes.
      const me = await cookieAgent(app, alice.cookie).get('/api/auth/session-user');
      expect(me.body.user?.email).toBe('alice@example.com');
      return { alice, itemId: item.id };
    },
    { now: '2026-11-26T12:00:00Z' },
  );

  it('gives each test the seed’s rows, its signed-in agents and the same ids for the same writes', async () => {
    const t = await seeded.context();
    try {
      expect(seeds).toBe(1);
      firstName = t.database.name;
      expect((await cookieAgent(t.app, t.seeded.alice.cookie).get('/api/auth/session-user')).body.user?.email).toBe('alice@example.com');
      const { rows } = await t.database.pool.query<{ external_id: string }>('SELECT external_id FROM items ORDER BY id');
      expect(rows.map((r) => r.external_id)).toEqual(['MC700001']);
      expect((await insertMessage(t.database.db, { externalId: 'MC700002' })).id).toBe(t.seeded.itemId + 1);
      await t.database.pool.query(`UPDATE users SET first_name = 'Changed'`);
      await t.database.pool.query(`DELETE FROM sessions`);
    } finally {
      await t.close();
    }
  });

  it('resets what the test before wrote, without seeding again, under a new name', async () => {
    const t = await seeded.context();
    try {
      expect(seeds).toBe(1);
      expect(t.database.name).not.toBe(firstName);
      const { rows } = await t.database.pool.query<{ external_id: string }>('SELECT external_id FROM items ORDER BY id');
      expect(rows.map((r) => r.external_id)).toEqual(['MC700001']);
      const { rows: users } = await t.database.pool.query<{ first_name: string }>('SELECT first_name FROM users');
      expect(users.map((u) => u.first_name)).not.toContain('Changed');
      // The session the test before deleted is back: the cookie made in the seed still signs in.
      expect((await cookieAgent(t.app, t.seeded.alice.cookie).get('/api/auth/session-user')).body.user?.email).toBe('alice@example.com');
      expect((await insertMessage(t.database.db, { externalId: 'MC700003' })).id).toBe(t.seeded.itemId + 1);
    } finally {
      await t.close();
    }
  });

  it('gives a second context open at once a database of its own, seeded again', async () => {
    const first = await seeded.context();
    const second = await seeded.context();
    try {
      expect(seeds).toBe(2);
      expect(second.database.name).not.toBe(first.database.name);
      expect(await oidOf(second.database.pool)).not.toBe(await oidOf(first.database.pool));
      await insertMessage(first.database.db, { externalId: 'MC700004' });
      const { rows } = await second.database.pool.query<{ external_id: string }>('SELECT external_id FROM items ORDER BY id');
      expect(rows.map((r) => r.external_id)).toEqual(['MC700001']);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('seeds again when the database fails a check (a table written by DDL)', async () => {
    const t = await seeded.context();
    await t.database.pool.query('CREATE TABLE left_behind (id int)');
    await t.close();
    const next = await seeded.context();
    try {
      expect(seeds).toBe(3);
      const { rows } = await next.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname = 'left_behind'`);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await next.close();
    }
  });
});
