import { afterEach, describe, expect, it } from '@jest/globals';
import { and, eq, sql } from 'drizzle-orm';
import { itemHistory, items } from '../../db/schema/index.js';
import { createSyncHarness, T_A, T_B, type SyncHarness } from '../../../test/sync-harness.js';

/**
 * The roadmap chain through the production clients and sync service: one item whatever format it came in (v2, v1
 * JSON, RSS), the source each run used in Sync History, and the admin told once when the preferred source stops
 * working.
 */
let harnesses: SyncHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  harnesses = [];
});
const harness = async (env: Record<string, string> = {}) => {
  const h = await createSyncHarness({ graph: false, env });
  harnesses.push(h);
  return h;
};
const historyCount = async (h: SyncHarness) => (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(itemHistory))[0]!.n;
const counts = (run: { newItems: number; changedItems: number; removedItems: number; restoredItems: number }) => ({
  newItems: run.newItems,
  changedItems: run.changedItems,
  removedItems: run.removedItems,
  restoredItems: run.restoredItems,
});

describe('one snapshot, three formats', () => {
  it('the same snapshot read through v2, v1 JSON and RSS writes no history, counts nothing and mails nobody', async () => {
    const h = await harness();
    h.clock.set(T_A);
    const first = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(first.run).toMatchObject({ status: 'success', feedFormat: 'v2', newItems: 12, warning: null, drift: null });
    const stored = await h.database.db.select().from(items).orderBy(items.externalId);
    const history = await historyCount(h);
    const calls = h.hookCalls.length;

    h.server.fail({ target: 'v2', kind: 'status', status: 404 });
    const viaV1 = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(viaV1.run).toMatchObject({ status: 'success', feedFormat: 'json', itemsProcessed: 12, newItems: 0, changedItems: 0, removedItems: 0 });

    h.server.fail({ target: 'roadmap', kind: 'status', status: 410 });
    const viaRss = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(viaRss.run).toMatchObject({ status: 'success', feedFormat: 'rss', itemsProcessed: 12, newItems: 0, changedItems: 0, removedItems: 0 });

    h.server.clearFailures();
    const back = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(back.run).toMatchObject({ status: 'success', feedFormat: 'v2', newItems: 0, changedItems: 0, removedItems: 0 });

    expect(await historyCount(h)).toBe(history);
    expect(h.hookCalls).toHaveLength(calls);
    const after = await h.database.db.select().from(items).orderBy(items.externalId);
    const feedColumns = (rows: typeof stored) => rows.map(({ raw: _raw, lastSeenAt: _seen, ...row }) => row);
    expect(feedColumns(after)).toEqual(feedColumns(stored));
  });

  it('the next snapshot through v2 gives exactly the v1 diff: the same new, removed and changed counts and fields', async () => {
    const viaV1 = await harness({ ROADMAP_V2_URL: 'off' });
    const viaV2 = await harness();
    const fieldsOf = async (h: SyncHarness) =>
      (
        await h.database.db
          .select({ id: items.externalId, type: itemHistory.changeType, fields: itemHistory.changedFields })
          .from(itemHistory)
          .innerJoin(items, eq(items.id, itemHistory.itemId))
          .where(and(eq(itemHistory.changeType, 'changed')))
          .orderBy(items.externalId)
      ).map((r) => `${r.id}:${[...r.fields].sort().join(',')}`);

    for (const h of [viaV1, viaV2]) {
      h.clock.set(T_A);
      h.server.setRoadmap('A');
      // The first snapshot through v1 on both: only the next one differs in format.
      h.server.fail({ target: 'v2', kind: 'status', status: 404, times: 1 });
      await h.sync.syncRoadmap({ trigger: 'schedule' });
      h.clock.set(T_B);
      h.server.setRoadmap('B');
    }
    const b1 = await viaV1.sync.syncRoadmap({ trigger: 'schedule' });
    const b2 = await viaV2.sync.syncRoadmap({ trigger: 'schedule' });
    expect(b1.run.feedFormat).toBe('json');
    expect(b2.run.feedFormat).toBe('v2');
    expect(counts(b2.run)).toEqual(counts(b1.run));
    expect(b2.run.newItems + b2.run.changedItems + b2.run.removedItems).toBeGreaterThan(0);
    expect(await fieldsOf(viaV2)).toEqual(await fieldsOf(viaV1));
  });

  it('a field a v2 answer does not carry keeps its stored value: no history, no blanking', async () => {
    const h = await harness();
    h.clock.set(T_A);
    await h.sync.syncRoadmap({ trigger: 'schedule' });
    const before = await h.database.db
      .select({ id: items.externalId, phases: items.releasePhases, link: items.moreInfoLink })
      .from(items)
      .orderBy(items.externalId);
    h.server.setV2Transform((list) => list.map(({ releaseRings: _rings, moreInfoUrls: _urls, ...item }) => ({ ...item, summaryForAi: 'x' })));
    const run = (await h.sync.syncRoadmap({ trigger: 'schedule' })).run;
    expect(run).toMatchObject({ status: 'success', changedItems: 0 });
    expect(run.drift).toEqual({
      unexpected: [{ field: 'summaryForAi', items: 12 }],
      missing: [
        { field: 'moreInfoUrls', items: 12 },
        { field: 'releaseRings', items: 12 },
      ],
    });
    const after = await h.database.db
      .select({ id: items.externalId, phases: items.releasePhases, link: items.moreInfoLink })
      .from(items)
      .orderBy(items.externalId);
    expect(after).toEqual(before);
    expect(before.some((r) => r.link)).toBe(true);
  });
});

describe('which source a run used, and telling the admin once', () => {
  it('warns once when the preferred source stops working, says so in each later note, and notes the recovery', async () => {
    const h = await harness();
    h.clock.set(T_A);
    const runs = [];
    runs.push((await h.sync.syncRoadmap({ trigger: 'schedule' })).run);
    h.server.fail({ target: 'v2', kind: 'status', status: 404 });
    h.server.setRoadmap('B');
    runs.push((await h.sync.syncRoadmap({ trigger: 'schedule' })).run);
    runs.push((await h.sync.syncRoadmap({ trigger: 'schedule' })).run);
    h.server.fail({ target: 'roadmap', kind: 'html' });
    runs.push((await h.sync.syncRoadmap({ trigger: 'schedule' })).run);
    h.server.clearFailures();
    runs.push((await h.sync.syncRoadmap({ trigger: 'schedule' })).run);

    expect(runs.map((r) => `${r.status}:${r.feedFormat}`)).toEqual(['success:v2', 'success:json', 'unchanged:json', 'success:rss', 'success:v2']);
    expect(runs[1]!.warning).toBe(
      `The roadmap is now read from the v1 JSON feed: the v2 API stopped working (the v2 API: ${h.server.v2Url} answered HTTP 404). It is tried first on every run; Sync History says when it works again.`,
    );
    expect(runs[2]!.warning).toBeNull();
    expect(runs[2]!.note).toBe(`The v2 API was unusable (${h.server.v2Url} answered HTTP 404); the v1 JSON feed was used. The feed answered 304 Not Modified.`);
    expect(runs[3]!.warning).toMatch(
      /^The roadmap is now read from the RSS feed: the v2 API stopped working \(the v2 API: .*HTTP 404; the v1 JSON feed: .*markup instead of JSON/,
    );
    expect(runs[4]!.warning).toBeNull();
    expect(runs[4]!.note).toBe('The v2 API works again (the previous run read the RSS feed).');
    expect(runs.map((r) => r.changedItems + r.newItems + r.removedItems)).toEqual([12, expect.any(Number), 0, 0, 0]);
  });

  it('without the v2 API configured the v1 feed is the preferred source and nothing is warned', async () => {
    const h = await harness({ ROADMAP_V2_URL: 'off' });
    const { run } = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(run).toMatchObject({ status: 'success', feedFormat: 'json', warning: null, note: null });
    expect(h.server.requests.some((r) => r.startsWith('GET /v2'))).toBe(false);
  });
});
