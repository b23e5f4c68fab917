import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { DashboardVisitResponse, ItemListResponse } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../../test/tenant-fixtures.js';

/**
 * "Since your last visit" at fixed dates: the visit is written at most every LAST_VISIT_UPDATE_SECONDS (300 here),
 * the previous one is the baseline, and `sinceLastVisit=true` lists what is new or changed since then.
 */
let t: TestContext;
const at = (s: string) => new Date(s);
const MIN = 60_000;

beforeAll(async () => {
  t = await createTestContext({ LAST_VISIT_UPDATE_SECONDS: '300' }, { now: '2026-02-07T09:00:00Z' });
  // Old items nobody changed lately.
  await insertRoadmapItem(t.database.db, { externalId: '510001', title: 'Old roadmap item', lastChangedAt: at('2026-01-10T00:00:00Z') });
  await insertMessage(t.database.db, { externalId: 'MC510001', title: 'Old message', lastChangedAt: at('2026-01-10T00:00:00Z') });
});
afterAll(() => t.close());

const visit = async (agent: Awaited<ReturnType<typeof signIn>>['agent']) => {
  const res = await agent.post('/api/dashboard/visit');
  expect(res.status).toBe(200);
  return res.body as DashboardVisitResponse;
};
const since = async (agent: Awaited<ReturnType<typeof signIn>>['agent'], query: Record<string, string> = {}) => {
  const res = await agent.get('/api/unified/items').query({ sinceLastVisit: 'true', ...query });
  expect(res.status).toBe(200);
  const body = res.body as ItemListResponse;
  return { ids: body.items.map((i) => i.itemId ?? i.messageId), total: body.total };
};

describe('since your last visit', () => {
  it('guests get 401 for the visit and for sinceLastVisit (the list itself stays public)', async () => {
    expect((await request(t.app).post('/api/dashboard/visit')).status).toBe(401);
    const list = await request(t.app).get('/api/unified/items').query({ sinceLastVisit: 'true' });
    expect(list.status).toBe(401);
    expect(list.body.error.message).toBe('Sign in to see what changed since your last visit');
    expect((await request(t.app).get('/api/dashboard/export').query({ sinceLastVisit: 'true' })).status).toBe(401);
    expect((await request(t.app).get('/api/unified/items')).status).toBe(200);
  });

  it('remembers visits at most every 5 minutes and counts from the previous one', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    t.clock.set('2026-02-07T09:00:00Z');
    // First visit: nothing to compare with yet.
    expect(await visit(agent)).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
    expect(await since(agent)).toEqual({ ids: [], total: 0 });

    // A sync records a new roadmap item and a changed message.
    await insertRoadmapItem(t.database.db, {
      externalId: '510002',
      title: 'New since',
      firstSeenAt: at('2026-02-07T09:01:00Z'),
      lastChangedAt: at('2026-02-07T09:01:00Z'),
      createdDate: at('2026-02-06T00:00:00Z'),
    });
    await insertMessage(t.database.db, {
      externalId: 'MC510002',
      title: 'Changed since',
      firstSeenAt: at('2026-01-01T00:00:00Z'),
      lastChangedAt: at('2026-02-07T09:02:00Z'),
      createdDate: at('2026-01-01T00:00:00Z'),
    });

    // A reload 3 minutes later is the same visit: no new baseline; until a second visit counts, the first is it.
    t.clock.advance(3 * MIN);
    expect(await visit(agent)).toEqual({ lastVisitAt: null, changesSinceLastVisit: 0 });
    expect((await since(agent)).ids.sort()).toEqual(['510002', 'MC510002']);

    // Back after 10 minutes: the visit at 09:00 is the last one; both changes are since then.
    t.clock.set('2026-02-07T09:10:00Z');
    expect(await visit(agent)).toEqual({ lastVisitAt: '2026-02-07T09:00:00.000Z', changesSinceLastVisit: 2 });
    expect((await since(agent)).ids.sort()).toEqual(['510002', 'MC510002']);
    // Reloading within 5 minutes keeps that baseline (the previous value is what counts).
    t.clock.set('2026-02-07T09:12:00Z');
    expect(await visit(agent)).toEqual({ lastVisitAt: '2026-02-07T09:00:00.000Z', changesSinceLastVisit: 2 });

    // The next visit after a quiet period: nothing changed since 09:10.
    t.clock.set('2026-02-07T15:00:00Z');
    expect(await visit(agent)).toEqual({ lastVisitAt: '2026-02-07T09:10:00.000Z', changesSinceLastVisit: 0 });
    expect(await since(agent)).toEqual({ ids: [], total: 0 });
  });

  it('combines with every other filter, the export and the archive', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    t.clock.set('2026-02-08T08:00:00Z');
    await visit(agent);
    await insertRoadmapItem(t.database.db, {
      externalId: '510003',
      title: 'Teams: moved and changed',
      products: ['Microsoft Teams'],
      status: 'Rolling out',
      lastChangedAt: at('2026-02-08T08:30:00Z'),
      gaMoves: 1,
      gaShiftMonths: 2,
      releaseMovedAt: at('2026-02-08T08:30:00Z'),
    });
    await insertRoadmapItem(t.database.db, { externalId: '510004', title: 'Removed since', isRemoved: true, removedAt: at('2026-02-08T08:30:00Z') });
    t.clock.set('2026-02-08T09:00:00Z');
    expect(await visit(agent)).toEqual({ lastVisitAt: '2026-02-08T08:00:00.000Z', changesSinceLastVisit: 1 });
    expect((await since(agent)).ids).toEqual(['510003']);
    expect((await since(agent, { sources: 'messages' })).ids).toEqual([]);
    expect((await since(agent, { roadmapStatuses: 'Rolling out', products: 'Microsoft Teams' })).ids).toEqual(['510003']);
    expect((await since(agent, { roadmapStatuses: 'Launched' })).ids).toEqual([]);
    expect((await since(agent, { releaseMoved: '7days' })).ids).toEqual(['510003']);
    expect((await since(agent, { search: 'moved' })).ids).toEqual(['510003']);
    // The archive adds what left the feed since then.
    expect((await since(agent, { includeRemoved: 'true' })).ids.sort()).toEqual(['510003', '510004']);
    const csv = await agent.get('/api/dashboard/export').query({ sinceLastVisit: 'true' });
    expect(csv.status).toBe(200);
    expect(
      csv.text
        .split('\r\n')
        .filter(Boolean)
        .map((line) => line.split(',')[0]!.replace(/^\ufeff/, '')),
    ).toEqual(['ID', '510003']);
  });

  it('keeps each user their own baseline', async () => {
    const first = await signIn(t.app, t.database.db);
    const second = await signIn(t.app, t.database.db);
    t.clock.set('2026-01-01T00:00:00Z');
    await visit(first.agent);
    t.clock.set('2026-02-09T00:00:00Z');
    await visit(second.agent);
    t.clock.set('2026-02-09T01:00:00Z');
    const a = await visit(first.agent);
    const b = await visit(second.agent);
    expect(a.lastVisitAt).toBe('2026-01-01T00:00:00.000Z');
    expect(b.lastVisitAt).toBe('2026-02-09T00:00:00.000Z');
    expect(a.changesSinceLastVisit).toBeGreaterThan(b.changesSinceLastVisit);
    expect((await since(first.agent)).total).toBe(a.changesSinceLastVisit);
    expect((await since(second.agent)).total).toBe(b.changesSinceLastVisit);
  });

  it("counts what the caller's own list shows: a private tenant's post for those given it, and for admins", async () => {
    t.clock.set('2026-03-01T00:00:00Z');
    const tenant = await insertTenant(t.database.db, { name: 'Contoso private', visibility: 'private' });
    const [reader, granted, admin] = [
      await signIn(t.app, t.database.db),
      await signIn(t.app, t.database.db),
      await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] }),
    ];
    await grantTenant(t.database.db, granted.user.id, tenant.id);
    for (const who of [reader, granted, admin]) await visit(who.agent);
    t.clock.set('2026-03-01T01:00:00Z');
    const row = await insertMessage(t.database.db, {
      externalId: 'MC519001',
      title: 'Private change',
      firstSeenAt: at('2026-03-01T00:30:00Z'),
      lastChangedAt: at('2026-03-01T00:30:00Z'),
    });
    await receivedBy(t.database.db, row.id, [tenant.id]);
    await insertRoadmapItem(t.database.db, {
      externalId: '519002',
      title: 'Public change',
      firstSeenAt: at('2026-03-01T00:30:00Z'),
      lastChangedAt: at('2026-03-01T00:30:00Z'),
    });
    const counts = [];
    for (const who of [reader, granted, admin]) {
      const answer = await visit(who.agent);
      // The banner's count is the total of the list its button shows.
      expect((await since(who.agent)).total).toBe(answer.changesSinceLastVisit);
      counts.push(answer.changesSinceLastVisit);
    }
    expect(counts).toEqual([1, 2, 2]);
  });
});
