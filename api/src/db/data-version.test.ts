import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { createSyncHarness, T_A, T_B, type SyncHarness } from '../../test/sync-harness.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { insertRoadmapItem, signIn } from '../../test/factories.js';
import { currentDataVersion, readDataVersion, readDataVersionNumber } from './data-version.js';
import { items } from './schema/index.js';

describe('data version: every committed write to item data moves it, once per transaction', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(async () => {
    await t.close();
  });
  const version = async () => (await readDataVersion(t.database.pool)).version;
  /**
   * A data-version read on this file's database. The worker runs other files before this one, and a read an earlier
   * file's app still had under way goes through the same patched prototype: it is not this test's.
   */
  const ownRead = (client: pg.Client, query: unknown) =>
    client.database === t.database.name && (query as { name?: string }).name === 'read-data-version-number';

  it('currentDataVersion: calls in one turn and the next share one read; a call after a committed write sees it', async () => {
    const queries: unknown[] = [];
    const pool = t.database.pool;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (ownRead(this, args[0])) queries.push(args[0]);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      const together = [currentDataVersion(pool), currentDataVersion(pool), currentDataVersion(pool)];
      // A call in the following turn of the event loop, as a request read in the next poll makes it, joins them.
      await new Promise((resolve) => setImmediate(resolve));
      expect(queries).toHaveLength(0);
      together.push(currentDataVersion(pool));
      expect(new Set(together).size).toBe(1);
      const [before] = await Promise.all(together);
      expect(queries).toHaveLength(1);
      await insertRoadmapItem(t.database.db, { externalId: '470009' });
      // The insert committed before this call, so the read it joins (or starts) sees it.
      expect(await currentDataVersion(pool)).toBe(before! + 1);
      expect(await readDataVersionNumber(pool)).toBe(before! + 1);
    } finally {
      pg.Client.prototype.query = original;
    }
  });

  it('currentDataVersion: a call while a read is out waits for the next one, sent when that one is back, and sees a write committed before it', async () => {
    const pool = t.database.pool;
    const original = pg.Client.prototype.query;
    const reads: Promise<unknown>[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const result = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      if (!ownRead(this, args[0])) return result;
      reads.push(result);
      // The first read is answered by the database at once, and reaches its callers only when released.
      return reads.length === 1 ? result.then(async (value) => (await held, value)) : result;
    } as typeof original;
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      const first = currentDataVersion(pool);
      await turns(3);
      expect(reads).toHaveLength(1);
      await reads[0];
      // Committed after the first read ran, before the calls below: they must see it.
      await insertRoadmapItem(t.database.db, { externalId: '470010' });
      const later = [currentDataVersion(pool), currentDataVersion(pool)];
      await turns(5);
      // Not sent while the first is out: those calls wait together for the next one.
      expect(reads).toHaveLength(1);
      expect(later[0]).toBe(later[1]);
      release();
      const before = await first;
      const after = await Promise.all(later);
      expect(reads).toHaveLength(2);
      expect(after).toEqual([before + 1, before + 1]);
      // No read waits: the connection the reads kept is back in the pool.
      await turns(2);
      expect(pool.idleCount).toBe(pool.totalCount);
    } finally {
      pg.Client.prototype.query = original;
    }
  });

  it('moves on an insert, once for a transaction of many writes, and not for a rolled-back one', async () => {
    const start = await readDataVersion(t.database.pool);
    const row = await insertRoadmapItem(t.database.db, { externalId: '470001' });
    const afterInsert = await readDataVersion(t.database.pool);
    expect(afterInsert.version).toBe(start.version + 1);
    expect(await readDataVersionNumber(t.database.pool)).toBe(afterInsert.version);
    expect(afterInsert.changedAt.getTime()).toBeGreaterThanOrEqual(start.changedAt.getTime());

    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await tx
          .update(items)
          .set({ title: `Renamed ${i}` })
          .where(eq(items.id, row.id));
      // Not visible to others before the commit.
      expect((await readDataVersion(t.database.pool)).version).toBe(afterInsert.version);
    });
    expect(await version()).toBe(afterInsert.version + 1);

    await expect(
      t.database.db.transaction(async (tx) => {
        await tx.update(items).set({ title: 'Never' }).where(eq(items.id, row.id));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(afterInsert.version + 1);
  });

  it('moves on a moderation save', async () => {
    await insertRoadmapItem(t.database.db, { externalId: '470002' });
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const before = await version();
    const res = await agent.put('/api/moderator/roadmap/470002').send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' });
    expect(res.status).toBe(200);
    expect(await version()).toBe(before + 1);
    // Reads never move it.
    await request(t.app).get('/api/unified/items');
    expect(await version()).toBe(before + 1);
  });
});

describe('data version and the sync', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await createSyncHarness({ graph: false });
  });
  afterAll(async () => {
    await h.close();
  });

  it('moves when a sync changes items and stays when a re-sync of the same snapshot writes nothing', async () => {
    const v0 = (await readDataVersion(h.database.pool)).version;
    h.clock.set(T_A);
    h.server.setRoadmap('A');
    await h.sync.syncRoadmap({ trigger: 'admin' });
    const v1 = (await readDataVersion(h.database.pool)).version;
    expect(v1).toBe(v0 + 1);
    await h.sync.syncRoadmap({ trigger: 'admin' });
    expect((await readDataVersion(h.database.pool)).version).toBe(v1);
    h.clock.set(T_B);
    h.server.setRoadmap('B');
    await h.sync.syncRoadmap({ trigger: 'admin' });
    expect((await readDataVersion(h.database.pool)).version).toBe(v1 + 1);
  });
});
