import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq, sql } from 'drizzle-orm';
import { itemHistory, items, messageRoadmapLinks, syncHistory } from '../../db/schema/index.js';
import { mergePendingItemPages } from '../../../test/pending-index.js';
import { readFixture } from '../../../test/replay-server.js';
import { createSyncHarness, T_A, T_B, T_C, type SyncHarness } from '../../../test/sync-harness.js';
import { ConflictError } from '../../lib/errors.js';
import { SAFE_COPY_MIN_CHARS, safeCopiesOf, SANITIZE_VERSION, sanitizeForOutput, sanitizeMaybeHtml } from '../../lib/html.js';

let h: SyncHarness;
beforeAll(async () => {
  h = await createSyncHarness();
});
afterAll(() => h.close());

const db = () => h.database.db;
async function item(source: 'roadmap' | 'messages', externalId: string) {
  const [row] = await db()
    .select()
    .from(items)
    .where(and(eq(items.source, source), eq(items.externalId, externalId)));
  return row;
}
async function historyOf(source: 'roadmap' | 'messages', externalId: string) {
  const row = await item(source, externalId);
  return db().select().from(itemHistory).where(eq(itemHistory.itemId, row.id)).orderBy(itemHistory.id);
}
async function historyCount() {
  const [r] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(itemHistory);
  return r.n;
}
async function linksOf(messageId: string) {
  const row = await item('messages', messageId);
  const links = await db().select().from(messageRoadmapLinks).where(eq(messageRoadmapLinks.messageItemId, row.id));
  return links.map((l) => `${l.roadmapExternalId}:${l.origin}`).sort();
}

describe('roadmap sync, snapshot A then B', () => {
  it('A: inserts every item with a "new" history entry and a sync history record', async () => {
    h.clock.set(T_A);
    h.server.setRoadmap('A');
    const { run, changes } = await h.sync.syncRoadmap({ trigger: 'admin' });
    expect(run).toMatchObject({
      syncSource: 'roadmap',
      status: 'success',
      success: true,
      itemsProcessed: 12,
      totalItems: 12,
      newItems: 12,
      changedItems: 0,
      removedItems: 0,
      restoredItems: 0,
      errorMessage: null,
    });
    expect(changes?.changes).toHaveLength(12);
    expect(h.hookCalls).toHaveLength(1);
    const [entry] = await historyOf('roadmap', '500001');
    expect(entry).toMatchObject({ changeType: 'new', changedFields: [] });
    expect(entry.newValues).toMatchObject({ title: 'Microsoft Teams: Live translation in chat', status: 'Launched' });
    expect((await item('roadmap', '500004')).products).toEqual(['Microsoft 365 admin center', 'Microsoft Copilot (Microsoft 365)']);
  });

  it('the same snapshot twice creates no history and counts nothing', async () => {
    const before = await historyCount();
    // The replay server answers the conditional request with 304: the run ends unchanged without a body.
    const { run, changes } = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(run).toMatchObject({
      status: 'unchanged',
      success: true,
      feedFormat: 'v2',
      newItems: 0,
      changedItems: 0,
      removedItems: 0,
      itemsProcessed: 0,
      totalItems: 12,
    });
    expect(h.server.requests.at(-1)).toBe('GET /v2 304');
    // The same items in other pages (other bytes): read, compared, no history.
    h.server.setV2Paging({ mode: 'nextLink', pageSize: 7 });
    const repaged = await h.sync.syncRoadmap({ trigger: 'schedule' });
    h.server.setV2Paging({ mode: 'nextLink', pageSize: 5 });
    expect(repaged.run).toMatchObject({
      status: 'success',
      feedFormat: 'v2',
      newItems: 0,
      changedItems: 0,
      removedItems: 0,
      restoredItems: 0,
      itemsProcessed: 12,
    });
    // The same items through the v1 feed, re-serialised (keys sorted, 4-space indent, like the second real file).
    h.server.addRoadmap('A-sorted', JSON.stringify(JSON.parse(readFixture('roadmap-a.json')), null, 4));
    h.server.setRoadmap('A-sorted');
    h.server.fail({ target: 'v2', kind: 'status', status: 404, times: 1 });
    const again = await h.sync.syncRoadmap({ trigger: 'schedule' });
    expect(again.run).toMatchObject({
      status: 'success',
      feedFormat: 'json',
      newItems: 0,
      changedItems: 0,
      removedItems: 0,
      restoredItems: 0,
      itemsProcessed: 12,
    });
    expect(changes).toBeNull();
    expect(repaged.changes).toBeNull();
    expect(again.changes).toBeNull();
    expect(await historyCount()).toBe(before);
    expect(h.hookCalls).toHaveLength(1);
  });

  it('B: records added, changed (field level), removed; `modified` alone writes nothing; curation survives', async () => {
    const featured = await item('roadmap', '500002');
    await db()
      .update(items)
      .set({
        isFeatured: true,
        moderatorNotes: 'watch this',
        moderatedBy: 'mod@example.com',
        thirdPartyLinks: [{ title: 'Video', url: 'https://example.com/v', type: 'video' }],
      })
      .where(eq(items.id, featured.id));
    h.clock.set(T_B);
    h.server.setRoadmap('B');
    const { run } = await h.sync.syncRoadmap({ trigger: 'admin' });
    expect(run).toMatchObject({ newItems: 2, changedItems: 4, removedItems: 2, restoredItems: 0, itemsProcessed: 12, totalItems: 12 });

    const status = (await historyOf('roadmap', '500002')).at(-1)!;
    expect(status).toMatchObject({
      changeType: 'changed',
      changedFields: ['status'],
      previousValues: { status: 'In development' },
      newValues: { status: 'Rolling out' },
    });
    expect(status.changeDate.toISOString()).toBe(new Date(T_B).toISOString());

    const ga = (await historyOf('roadmap', '500004')).at(-1)!;
    expect(ga.changedFields).toEqual(['releaseDate', 'platforms', 'tags']);
    expect(ga.previousValues.releaseDate).toBe('March CY2026');
    expect(ga.newValues.releaseDate).toBe('April CY2026');
    expect(ga.newValues.platforms).toEqual(['Web', 'Mac']);
    // The GA move is counted on the item (date slips).
    expect(await item('roadmap', '500004')).toMatchObject({ gaMoves: 1, gaShiftMonths: 1, previewMoves: 0, releaseMoves: 1, releaseMovedAt: new Date(T_B) });
    expect(await item('roadmap', '500002')).toMatchObject({ gaMoves: 0, releaseMoves: 0, releaseMovedAt: null });

    const title = (await historyOf('roadmap', '500005')).at(-1)!;
    expect(title.changedFields).toEqual(['title', 'products', 'tags']);
    expect(title.newValues.title).toBe('Planner: Webhooks for Planner tasks in Microsoft Graph');
    expect(title.newValues.products).toEqual(['Planner']);

    const cancelled = (await historyOf('roadmap', '500009')).at(-1)!;
    expect(cancelled.changedFields).toEqual(['description', 'status']);

    // modified alone: stored, but no history entry
    expect(await historyOf('roadmap', '500003')).toHaveLength(1);
    expect((await item('roadmap', '500003')).modifiedDate!.toISOString()).toBe('2026-02-04T23:15:31.000Z');

    const removed = await item('roadmap', '500006');
    expect(removed).toMatchObject({ isRemoved: true });
    expect((await historyOf('roadmap', '500006')).at(-1)).toMatchObject({
      changeType: 'removed',
      changedFields: ['isRemoved'],
      previousValues: { isRemoved: false },
      newValues: { isRemoved: true },
    });
    expect((await historyOf('roadmap', '499999'))[0].changeType).toBe('new');

    const curated = await item('roadmap', '500002');
    expect(curated).toMatchObject({ status: 'Rolling out', isFeatured: true, moderatorNotes: 'watch this', moderatedBy: 'mod@example.com' });
    expect(curated.thirdPartyLinks).toHaveLength(1);
  });

  it('an item that comes back is restored and its return recorded', async () => {
    h.server.setRoadmap('A');
    h.clock.set(T_C);
    const { run } = await h.sync.syncRoadmap({ trigger: 'admin' });
    expect(run).toMatchObject({ newItems: 0, restoredItems: 2, removedItems: 2, changedItems: 4 });
    const back = await item('roadmap', '500006');
    expect(back).toMatchObject({ isRemoved: false, removedAt: null });
    expect((await historyOf('roadmap', '500006')).at(-1)).toMatchObject({
      changeType: 'changed',
      changedFields: ['isRemoved'],
      previousValues: { isRemoved: true },
      newValues: { isRemoved: false },
    });
    const rows = await db().select().from(items).where(eq(items.source, 'roadmap'));
    expect(rows).toHaveLength(14); // never deleted
    // 500004's GA date went back (April → March): a second move, net shift 0.
    expect(await item('roadmap', '500004')).toMatchObject({ gaMoves: 2, gaShiftMonths: 0, releaseMoves: 2, releaseMovedAt: new Date(T_C) });
  });

  it('merges the pending entries of the items GIN indexes once a sync has written, so no search reads them', async () => {
    const mergePending = () => mergePendingItemPages(h.database.pool);
    // A write outside a bulk writer leaves its entries pending (what the check can see).
    const one = await item('roadmap', '500001');
    await db()
      .update(items)
      .set({ tags: [...one.tags, 'pending check'] })
      .where(eq(items.id, one.id));
    expect(await mergePending()).toBeGreaterThan(0);
    await db().update(items).set({ tags: one.tags }).where(eq(items.id, one.id));

    h.server.setRoadmap('B');
    const { run } = await h.sync.syncRoadmap({ trigger: 'admin' });
    expect(run.changedItems + run.removedItems + run.restoredItems).toBeGreaterThan(0);
    expect(await mergePending()).toBe(0);
    // Back to A, as the tests below expect (restoring is a write too).
    h.server.setRoadmap('A');
    expect((await h.sync.syncRoadmap({ trigger: 'admin' })).run.restoredItems).toBeGreaterThan(0);
    expect(await mergePending()).toBe(0);
  });
});

describe('Message Center sync, snapshots A, B and C', () => {
  it('A: all pages stored, links from RoadmapIds and body links (also to roadmap items not seen yet)', async () => {
    h.clock.set(T_A);
    h.server.setMessages('A');
    const { run } = await h.sync.syncMessages({ trigger: 'schedule' });
    expect(run).toMatchObject({ syncSource: 'message_center', status: 'success', itemsProcessed: 10, newItems: 10, totalItems: 10 });
    expect(await linksOf('MC900002')).toEqual(['500002:details', '500004:details']);
    expect(await linksOf('MC900006')).toEqual(['500008:body', '500011:body']);
    expect(await linksOf('MC900010')).toEqual(['599999:details']);
    const m = await item('messages', 'MC900002');
    expect(m.createdDate!.toISOString()).toBe('2025-12-01T20:57:32.100Z');
    // Every row written carries its text as it is sent out, made under the policy in force.
    const written = await db().select().from(items);
    expect(written.length).toBeGreaterThan(10);
    for (const row of written)
      expect({ id: row.externalId, version: row.safeVersion, body: row.bodySafe, description: row.descriptionSafe }).toEqual({
        id: row.externalId,
        version: SANITIZE_VERSION,
        body: row.bodyHtml && row.bodyHtml.length >= SAFE_COPY_MIN_CHARS ? sanitizeForOutput(row.bodyHtml) : null,
        description: row.description && sanitizeMaybeHtml(row.description) !== row.description ? sanitizeMaybeHtml(row.description) : null,
      });
  });

  it('B: new, expired, real changes; FeatureStatusJson restamps create nothing; links kept current', async () => {
    h.clock.set(T_B);
    h.server.setMessages('B');
    // A mark in every stored copy shows which rows the sync sanitised again.
    await db().update(items).set({ bodySafe: 'copy left as it was' }).where(eq(items.source, 'messages'));
    const { run } = await h.sync.syncMessages({ trigger: 'schedule' });
    expect(run).toMatchObject({ newItems: 2, removedItems: 1, changedItems: 3, restoredItems: 0, itemsProcessed: 11, totalItems: 11 });
    // A post whose text changed gets copies of its new text; one whose text did not (a date moved) keeps its copies.
    const rewritten = await item('messages', 'MC900002');
    expect(rewritten.bodySafe).toBe(rewritten.bodyHtml!.length >= SAFE_COPY_MIN_CHARS ? sanitizeForOutput(rewritten.bodyHtml!) : null);
    expect(rewritten.safeVersion).toBe(SANITIZE_VERSION);
    expect(await item('messages', 'MC900009')).toMatchObject({ bodySafe: 'copy left as it was', safeVersion: SANITIZE_VERSION });
    for (const row of await db().select().from(items).where(eq(items.bodySafe, 'copy left as it was')))
      await db()
        .update(items)
        .set({ bodySafe: safeCopiesOf(row).bodySafe })
        .where(eq(items.id, row.id));
    const updated = (await historyOf('messages', 'MC900002')).at(-1)!;
    expect(updated.changedFields).toEqual(['title', 'bodyContent', 'tags', 'endDate']);
    expect(updated.previousValues.title).toBe('Copilot: Sensitivity labels for custom connectors');
    expect(updated.newValues.title).toBe('(Updated) Copilot: Sensitivity labels for custom connectors');
    expect(updated.newValues.endDate).toBe('2026-07-31T07:00:00.000Z');
    expect(await historyOf('messages', 'MC900003')).toHaveLength(1);
    expect((await historyOf('messages', 'MC900009')).at(-1)!.changedFields).toEqual(['actionRequiredByDate']);
    expect((await historyOf('messages', 'MC900007')).at(-1)!.changedFields).toEqual(['roadmapIds']);
    expect(await linksOf('MC900007')).toEqual(['500005:details', '500101:details']);
    expect(await item('messages', 'MC900008')).toMatchObject({ isRemoved: true });
    expect((await historyOf('messages', 'MC900008')).at(-1)).toMatchObject({ changeType: 'removed', newValues: { isRemoved: true, reason: 'expired' } });
  });

  it('C: an expired message that returns revised is restored with its changes (MC1048624)', async () => {
    h.clock.set(T_C);
    h.server.setMessages('C');
    const { run } = await h.sync.syncMessages({ trigger: 'schedule' });
    expect(run).toMatchObject({ newItems: 0, restoredItems: 1, changedItems: 0, removedItems: 0 });
    const entry = (await historyOf('messages', 'MC900008')).at(-1)!;
    expect(entry.changeType).toBe('changed');
    expect(entry.changedFields).toEqual(['isRemoved', 'title', 'tags', 'endDate']);
    expect(entry.previousValues).toMatchObject({ isRemoved: true, title: 'DNS Provisioning Change' });
    expect(entry.newValues).toMatchObject({ isRemoved: false, title: '(Updated) DNS Provisioning Change' });
  });

  it('a message still listed after its endDateTime passed is marked expired', async () => {
    h.clock.set('2026-10-01T00:00:00Z');
    const { run } = await h.sync.syncMessages({ trigger: 'schedule' });
    expect(run.removedItems).toBe(12);
    expect(run.totalItems).toBe(0);
    // Every post the feed sent is past its end date: processed 12, live 0, all counted as expired.
    expect(run).toMatchObject({ itemsProcessed: 12, expiredInFeed: 12, changedItems: 0, changedExpired: 0 });
  });

  it('a changed post that is expired is counted apart: recorded, but in no digest', async () => {
    const revised = (JSON.parse(readFixture('messages-c.json')) as { id: string; title: string }[]).map((m) =>
      m.id === 'MC900001' ? { ...m, title: `${m.title} (revised)` } : m,
    );
    h.server.addMessages('C-revised', revised);
    h.server.setMessages('C-revised');
    const { run } = await h.sync.syncMessages({ trigger: 'schedule' });
    expect(run.changedItems).toBeGreaterThan(0);
    expect(run.changedExpired).toBe(run.changedItems);
    expect(run.expiredInFeed).toBe(run.itemsProcessed);
  });
});

describe('failures change nothing and are recorded', () => {
  async function snapshotState() {
    const rows = await db().select({ id: items.id, r: items.isRemoved, h: items.contentHash }).from(items).orderBy(items.id);
    return { rows, history: await historyCount() };
  }

  let failureRun = 0;
  it.each([
    ['page 2 fails', 'messages' as const, { target: 'messages' as const, page: 2, kind: 'status' as const, status: 500 }],
    ['a page without value', 'messages' as const, { target: 'messages' as const, page: 3, kind: 'no-value' as const }],
    ['the token endpoint fails', 'messages' as const, { target: 'token' as const, kind: 'status' as const, status: 503 }],
    ['malformed roadmap JSON', 'roadmap' as const, { target: 'roadmap' as const, kind: 'malformed' as const }],
    ['the roadmap feed hangs', 'roadmap' as const, { target: 'roadmap' as const, kind: 'hang' as const }],
  ])('%s', async (_name, source, failure) => {
    // Far enough ahead that a cached Graph token has expired, so the token endpoint is asked again.
    failureRun++;
    h.clock.set(new Date(Date.parse('2027-01-01T00:00:00Z') + failureRun * 3_600_000));
    h.server.setRoadmap('B');
    h.server.setMessages('A');
    h.server.fail(failure);
    // Both JSON sources of the roadmap chain break the same way and its RSS fallback is down too: here the whole
    // fetch must fail (the chain has its own tests).
    if (failure.target === 'roadmap') h.server.fail({ ...failure, target: 'v2' });
    h.server.fail({ target: 'rss', kind: 'status', status: 503 });
    const before = await snapshotState();
    const { run, changes } = source === 'roadmap' ? await h.sync.syncRoadmap({ trigger: 'admin' }) : await h.sync.syncMessages({ trigger: 'admin' });
    h.server.clearFailures();
    expect(run).toMatchObject({ status: 'failed', success: false, newItems: 0, removedItems: 0 });
    expect(run.errorMessage).toBeTruthy();
    expect(run.finishedAt).not.toBeNull();
    expect(changes).toBeNull();
    expect(await snapshotState()).toEqual(before);
  });
});

describe('locking and configuration', () => {
  it('never runs two syncs of one source at once (in process and across processes)', async () => {
    // Its own harness with a longer feed timeout: the first sync must still hang while the other two are refused,
    // even on a loaded CI machine (with the shared 1.5 s timeout it sometimes finished first).
    const slow = await createSyncHarness({ env: { FEED_TIMEOUT_MS: '5000' } });
    try {
      slow.server.setRoadmap('B');
      slow.server.fail({ target: 'v2', kind: 'hang', times: 1 });
      slow.server.fail({ target: 'roadmap', kind: 'status', status: 503, times: 1 });
      slow.server.fail({ target: 'rss', kind: 'status', status: 503, times: 1 });
      const first = slow.sync.syncRoadmap({ trigger: 'schedule' });
      await new Promise((r) => setTimeout(r, 100));
      await expect(slow.sync.syncRoadmap({ trigger: 'admin' })).rejects.toBeInstanceOf(ConflictError);
      // A second service (as in another process) on the same database is refused by the advisory lock.
      const { createSyncServiceFor } = await import('./wiring.js');
      const log = (await import('../../logger.js')).createLogger('silent');
      const second = createSyncServiceFor({ config: slow.config, db: slow.database.db, pool: slow.database.pool, clock: slow.clock, log });
      await expect(second.syncRoadmap({ trigger: 'admin' })).rejects.toBeInstanceOf(ConflictError);
      expect((await first).run.status).toBe('failed');
      // The lock is free again (the server serves B, which the failed runs above never applied).
      expect((await slow.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
    } finally {
      await slow.close();
    }
  });

  it('marks runs a dead process left running as interrupted at start, but not one a live process owns', async () => {
    const [orphan] = await db()
      .insert(syncHistory)
      .values({ source: 'message_center', trigger: 'schedule', startedAt: h.clock.now(), status: 'running' })
      .returning();
    // A live run of the roadmap elsewhere: its session holds the advisory lock.
    const [owned] = await db().insert(syncHistory).values({ source: 'roadmap', trigger: 'schedule', startedAt: h.clock.now(), status: 'running' }).returning();
    const holder = await h.database.pool.connect();
    try {
      await holder.query('select pg_advisory_lock($1, 1)', [0x52414441]);
      expect(await h.sync.recoverInterruptedRuns()).toBe(1);
      const rows = await db()
        .select()
        .from(syncHistory)
        .where(sql`${syncHistory.id} in (${orphan!.id}, ${owned!.id})`)
        .orderBy(syncHistory.id);
      expect(rows.map((r) => r.status)).toEqual(['interrupted', 'running']);
      expect(rows[0]!.errorMessage).toMatch(/^interrupted: the process stopped/);
    } finally {
      await holder.query('select pg_advisory_unlock($1, 1)', [0x52414441]);
      holder.release();
    }
    expect(await h.sync.recoverInterruptedRuns()).toBe(1);
  });

  it('without Graph credentials the Message Center sync is recorded as not configured', async () => {
    const bare = await createSyncHarness({ graph: false });
    try {
      const { run } = await bare.sync.syncMessages({ trigger: 'schedule' });
      expect(run).toMatchObject({ status: 'not_configured', success: false });
      expect(run.errorMessage).toMatch(/GRAPH_TENANT_ID/);
      const rows = await bare.database.db.select().from(syncHistory);
      expect(rows).toHaveLength(1);
      expect(bare.server.requests).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});
