import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
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

  it('currentDataVersion: calls in one turn and the next share one read; a call after a committed write sees it', async () => {
    const queries: unknown[] = [];
    const pool = t.database.pool;
    const original = pool.query.bind(pool);
    pool.query = ((...args: unknown[]) => {
      queries.push(args[0]);
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as typeof pool.query;
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
      pool.query = original;
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
