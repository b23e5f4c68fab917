import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import type { TestContext } from '../../../test/context.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { T_A, T_B } from '../../../test/sync-harness.js';
import { insertTenant } from '../../../test/tenant-fixtures.js';
import { items } from '../../db/schema/index.js';
import { createUsageRepo } from '../usage/usage.repo.js';

/**
 * Relevance after the production sync (roadmap snapshots from the replay server), as services.ts wires its hook: a
 * roadmap item whose products change is rated again for every tenant, without waiting for the tenant's own run.
 */
let server: ReplayServer;
let t: TestContext;
let tenantId = 0;

type RoadmapRecord = { id: number; tags: { tagName: string }[]; tagsContainer: { products: { tagName: string }[] } };

async function syncTo(name: string, at: string) {
  server.setRoadmap(name);
  t.clock.set(at);
  expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
}

async function relevanceOf(externalId: string) {
  const [item] = await t.database.db.select({ id: items.id }).from(items).where(eq(items.externalId, externalId));
  const { rows } = await t.database.pool.query('SELECT level, workload, reason FROM item_relevance WHERE item_id = $1 AND tenant_id = $2', [
    item!.id,
    tenantId,
  ]);
  return rows[0];
}

beforeAll(async () => {
  ({ t, server } = await createReplayTestContext({}, { now: T_A }));
  // 500001 (Microsoft Teams in A) names Copilot instead in C.
  const a = JSON.parse(readFixture('roadmap-a.json')) as RoadmapRecord[];
  const copilot = { tagName: 'Microsoft Copilot (Microsoft 365)' };
  const c = a.map((i) =>
    i.id === 500001
      ? {
          ...i,
          tags: i.tags.map((tag) => (tag.tagName === 'Microsoft Teams' ? copilot : tag)),
          tagsContainer: { ...i.tagsContainer, products: [copilot] },
        }
      : i,
  );
  server.addRoadmap('C', JSON.stringify(c));
  tenantId = (await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' })).id;
  const usage = createUsageRepo(t.database.db);
  await usage.store(
    tenantId,
    [{ workload: 'teams', reportDate: '2026-01-29', periodDays: 30, activeUsers: 950, licensedUsers: 1000 }],
    t.clock.now(),
    '2025-01-01',
  );
  await usage.setStatus(tenantId, { at: t.clock.now(), read: true, error: null, permissionMissing: false });
  await syncTo('A', T_A);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe('relevance after a roadmap sync', () => {
  it('rates the new items for every tenant', async () => {
    expect(await relevanceOf('500001')).toEqual({ level: 3, workload: 'teams', reason: '950 people used Teams in the last 30 days, 95 % of licensed users' });
  });

  it('rates an item again when the sync changes its products', async () => {
    await syncTo('C', T_B);
    expect(await relevanceOf('500001')).toEqual({ level: 0, workload: null, reason: 'Microsoft 365 Copilot usage not read yet' });
  });
});
