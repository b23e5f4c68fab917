import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { items, syncHistory } from '../../db/schema/index.js';
import { ROADMAP_SYNC_JOB } from '../../jobs/sync.jobs.js';
import type { TestContext } from '../../../test/context.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import type { ReplayServer } from '../../../test/replay-server.js';
import { DEMO_NOTICE } from '../../demo/demo-data.js';
import { getDemoState, isDemoDataLoaded } from './demo-state.repo.js';
import { initialSyncTask } from './initial-sync.js';

let t: TestContext;
let server: ReplayServer;
beforeAll(async () => {
  // The roadmap every 6 hours here (the default is hourly), so one source is due and the other not.
  ({ t, server } = await createReplayTestContext({ ROADMAP_SYNC_INTERVAL_MS: String(6 * 3600_000) }, { now: '2026-02-01T00:00:00Z' }));
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const count = async (where = sql`true`) =>
  (
    await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(items)
      .where(where)
  )[0].n;

describe('first start', () => {
  it('offline on the embedded default: loads the demo data set, flagged and with links', async () => {
    server.fail({ target: 'v2', kind: 'status', status: 503, times: 1 });
    server.fail({ target: 'roadmap', kind: 'status', status: 503, times: 1 });
    server.fail({ target: 'rss', kind: 'status', status: 503, times: 1 });
    await initialSyncTask(t.ctx, { isEmbedded: true });
    expect(await count(eq(items.isDemo, true))).toBe(90);
    expect(await isDemoDataLoaded(t.database.db)).toBe(true);
    expect((await getDemoState(t.database.db)).roadmap).toBe(true);
    const [one] = await t.database.db.select().from(items).where(eq(items.externalId, 'MC099001'));
    expect(one.roadmapIds).toEqual(['990001']);
    expect(one.bodyHtml).toContain(DEMO_NOTICE);
    const runs = await t.database.db.select().from(syncHistory).orderBy(syncHistory.id);
    expect(runs.map((r) => `${r.trigger}:${r.status}`)).toEqual(['startup:failed', 'demo:success', 'demo:success']);
  });

  it('the next successful live sync replaces the demo data instead of recording it as removed', async () => {
    const { run } = await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' });
    expect(run).toMatchObject({ newItems: 12, removedItems: 0, totalItems: 12 });
    await t.ctx.services.sync.syncMessages({ trigger: 'schedule' });
    expect(await count(eq(items.isDemo, true))).toBe(0);
    expect(await isDemoDataLoaded(t.database.db)).toBe(false);
  });

  it('with data present, syncs only sources whose last success is older than their interval', async () => {
    const before = (await t.database.db.select().from(syncHistory)).length;
    await initialSyncTask(t.ctx, { isEmbedded: true });
    expect((await t.database.db.select().from(syncHistory)).length).toBe(before);
    t.clock.advance(2 * 60 * 60 * 1000); // Message Center is due (1 h), the roadmap is not (6 h)
    await initialSyncTask(t.ctx, { isEmbedded: true });
    const runs = await t.database.db.select().from(syncHistory).orderBy(syncHistory.id);
    expect(runs.slice(before).map((r) => `${r.source}:${r.trigger}`)).toEqual(['message_center:startup']);
  });
});

describe('Agenda sync jobs', () => {
  it('run the sync service on schedule', async () => {
    const runner = createTestJobRunner(t);
    await runner.start();
    try {
      const before = (await t.database.db.select().from(syncHistory)).length;
      await runner.agenda.now(ROADMAP_SYNC_JOB);
      const deadline = Date.now() + 10_000;
      let rows = await t.database.db.select().from(syncHistory);
      while ((rows.length === before || rows.at(-1)!.status === 'running') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        rows = await t.database.db.select().from(syncHistory);
      }
      // The roadmap has not changed since the sync above: the scheduled run ends unchanged (a 304).
      expect(rows.at(-1)).toMatchObject({ source: 'roadmap', trigger: 'schedule', status: 'unchanged' });
    } finally {
      await runner.stop();
    }
  });
});
