import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import {
  changeHistoryListResponse,
  itemHistoryResponse,
  itemListResponse,
  linkedItemsResponse,
  syncHistoryResponse,
  syncTriggerResponse,
  type ChangeHistoryEntry,
} from '@radar/contracts';
import type { TestContext } from '../../../test/context.js';
import { signIn } from '../../../test/factories.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import type { ReplayServer } from '../../../test/replay-server.js';
import { T_A, T_B } from '../../../test/sync-harness.js';

let t: TestContext;
let server: ReplayServer;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];
let user: Awaited<ReturnType<typeof signIn>>['agent'];

beforeAll(async () => {
  ({ t, server } = await createReplayTestContext({ FEED_TIMEOUT_MS: '1000' }, { now: T_A }));
  admin = (await signIn(t.app, t.database.db, { roles: ['Admin'] })).agent;
  user = (await signIn(t.app, t.database.db, { roles: ['User'] })).agent;
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe('permissions', () => {
  it.each([
    ['post', '/api/roadmap/sync'],
    ['post', '/api/admin/sync-message-center'],
    ['get', '/api/admin/sync-history'],
    ['get', '/api/admin/change-history'],
  ] as const)('%s %s: 401 signed out, 403 for a User', async (method, path) => {
    expect((await request(t.app)[method](path)).status).toBe(401);
    expect((await user[method](path)).status).toBe(403);
  });
});

describe('admin sync triggers and history', () => {
  it('POST /api/roadmap/sync runs the sync and answers the sync history record', async () => {
    const res = await admin.post('/api/roadmap/sync');
    expect(res.status).toBe(200);
    const body = syncTriggerResponse.parse(res.body);
    expect(body.sync).toMatchObject({ syncSource: 'roadmap', success: true, newItems: 12, trigger: 'admin' });
  });

  it('POST /api/admin/sync-message-center runs the Message Center sync', async () => {
    const res = await admin.post('/api/admin/sync-message-center');
    expect(res.status).toBe(200);
    expect(res.body.sync).toMatchObject({ syncSource: 'message_center', success: true, newItems: 10 });
  });

  it('answers 409 while a sync of the same source runs', async () => {
    server.fail({ target: 'v2', kind: 'hang', times: 1 });
    server.fail({ target: 'roadmap', kind: 'status', status: 503, times: 1 });
    server.fail({ target: 'rss', kind: 'status', status: 503, times: 1 });
    const first = admin.post('/api/roadmap/sync').then((r) => r);
    await new Promise((r) => setTimeout(r, 150));
    const second = await admin.post('/api/roadmap/sync');
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('A Roadmap sync is already running');
    const failed = await first;
    expect(failed.status).toBe(502);
    expect(failed.body.sync).toMatchObject({ status: 'failed', success: false });
  });

  it('GET /api/admin/sync-history lists runs newest first', async () => {
    const res = await admin.get('/api/admin/sync-history');
    expect(res.status).toBe(200);
    const { syncHistory } = syncHistoryResponse.parse(res.body);
    expect(syncHistory.map((r) => r.status)).toEqual(['failed', 'success', 'success']);
  });

  it('GET /api/admin/change-history pages entries newest first with their item', async () => {
    t.clock.set(T_B);
    server.setRoadmap('B');
    await admin.post('/api/roadmap/sync').expect(200);
    const res = await admin.get('/api/admin/change-history?limit=5');
    expect(res.status).toBe(200);
    const body = changeHistoryListResponse.parse(res.body);
    expect(body.changeHistory).toHaveLength(5);
    expect(body.total).toBe(12 + 10 + 2 + 4 + 2);
    expect(body.totalPages).toBe(6);
    expect(body.changeHistory[0].changeDate).toBe(new Date(T_B).toISOString());
    expect(body.changeHistory[0].roadmapItem).toEqual({ itemId: expect.any(String), title: expect.any(String) });
    // Prose changes come as a word diff of the text, never as raw HTML.
    const prose = (await admin.get('/api/admin/change-history?limit=100&changeType=changed')).body as { changeHistory: ChangeHistoryEntry[] };
    const described = prose.changeHistory.find((e) => e.changedFields.includes('description'));
    expect(described?.textDiffs?.find((d) => d.field === 'description')?.parts.some((p) => p.type !== 'equal')).toBe(true);
    expect(JSON.stringify(described?.textDiffs)).not.toMatch(/<\/?p>|&nbsp;/);
    expect(prose.changeHistory.filter((e) => !e.changedFields.some((f) => ['title', 'description'].includes(f))).every((e) => e.textDiffs?.length === 0)).toBe(
      true,
    );
    const page2 = await admin.get('/api/admin/change-history?limit=5&page=2&changeType=removed');
    expect(page2.body).toMatchObject({ total: 2, changeHistory: [] });
    expect((await admin.get('/api/admin/change-history?limit=5000')).status).toBe(400);
    const again = await admin.post('/api/roadmap/sync');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ message: 'Roadmap feed unchanged since the last sync: nothing to apply', sync: { status: 'unchanged', success: true } });
  });
});

describe('item history, linked items and digest lists', () => {
  it('GET /api/roadmap/items/{itemId}/history', async () => {
    const res = await request(t.app).get('/api/roadmap/items/500002/history');
    const entries = itemHistoryResponse.parse(res.body);
    expect(entries.map((e) => e.changeType)).toEqual(['changed', 'new']);
    expect(entries[0]).toMatchObject({ changedFields: ['status'], previousValues: { status: 'In development' }, newValues: { status: 'Rolling out' } });
    expect((await request(t.app).get('/api/roadmap/items/123/history')).status).toBe(404);
    expect((await request(t.app).get('/api/roadmap/items/abc/history')).status).toBe(400);
  });

  it('GET /api/message-center/items/{messageId}/history', async () => {
    const res = await request(t.app).get('/api/message-center/items/MC900002/history');
    expect(res.status).toBe(200);
    expect(res.body[0].changeType).toBe('new');
  });

  it('links both ways: linked-messages and linked-roadmap', async () => {
    const messages = linkedItemsResponse.parse((await request(t.app).get('/api/roadmap/items/500004/linked-messages')).body);
    expect(messages.map((m) => m.messageId)).toEqual(['MC900002']);
    const roadmap = linkedItemsResponse.parse((await request(t.app).get('/api/message-center/items/MC900002/linked-roadmap')).body);
    expect(roadmap.map((r) => r.itemId).sort()).toEqual(['500002', '500004']);
    // a link to a roadmap item that does not exist yet resolves to nothing
    expect((await request(t.app).get('/api/message-center/items/MC900010/linked-roadmap')).body).toEqual([]);
  });

  it('GET /api/roadmap/items?changeTypes=new_7days|changed_7days (digest report)', async () => {
    const fresh = itemListResponse.parse((await request(t.app).get('/api/roadmap/items?changeTypes=new_7days&limit=1000')).body);
    expect(fresh.items.map((i) => i.itemId).sort()).toEqual(['499999', '500101']);
    const changed = itemListResponse.parse((await request(t.app).get('/api/roadmap/items?changeTypes=changed_7days')).body);
    expect(changed.items.map((i) => i.itemId).sort()).toEqual(['500002', '500004', '500005', '500009']);
    const all = (await request(t.app).get('/api/roadmap/items?limit=5')).body;
    expect(all).toMatchObject({ total: 12, totalPages: 3 });
    const messages = (await request(t.app).get('/api/message-center/items?changeTypes=new_7days')).body;
    expect(messages.items.map((i: { messageId: string }) => i.messageId)).toEqual([]);
    expect((await request(t.app).get('/api/roadmap/items?changeTypes=bogus')).status).toBe(400);
  });
});
