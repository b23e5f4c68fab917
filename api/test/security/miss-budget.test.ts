import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../factories.js';

/**
 * API4 (unrestricted resource consumption): answers no cache could give cost each client from a budget
 * (CACHE_MISS_BUDGET a minute, counted in ten-second windows) past which it gets 429 with Retry-After; answers served
 * from a cache are never counted or refused. The client is its API token, its signed-in user, or its network.
 */
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function setUp() {
  // 12 a minute: 2 in any ten seconds.
  t = await createTestContext({ CACHE_MISS_BUDGET: '12' }, { now: '2026-11-26T12:00:00Z' });
  await insertRoadmapItem(t.database.db, { externalId: '500001', title: 'Teams meeting recap' });
  await insertMessage(t.database.db, { externalId: 'MC500001', title: 'Exchange change' });
  return t;
}

describe('cache-miss budget', () => {
  it('refuses a guest past the budget with Retry-After, while cached answers stay open', async () => {
    const t = await setUp();
    const list = (search: string) => request(t.app).get('/api/unified/items').query({ search });
    expect((await list('teams')).status).toBe(200);
    expect((await list('exchange')).status).toBe(200);
    const refused = await list('recap');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      name: 'RateLimitError',
      message: 'Too many requests that no cache could answer: wait a few seconds (answers already made stay available)',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(10);
    // Made before: answered from the cache, however often.
    for (let i = 0; i < 5; i++) expect((await list('teams')).status).toBe(200);
    // Uncached work of other kinds counts too: history and compare.
    expect((await request(t.app).get('/api/roadmap/items/500001/history')).status).toBe(429);
  });

  it("counts a guest's new list answers, made before Express, by the network Express sees (behind a trusted proxy too)", async () => {
    // 12 a minute: 2 in any ten seconds; one proxy in front, whose X-Forwarded-For names the client.
    t = await createTestContext({ CACHE_MISS_BUDGET: '12', TRUST_PROXY: '1' }, { now: '2026-11-26T12:00:00Z' });
    await insertRoadmapItem(t.database.db, { externalId: '500001', title: 'Teams meeting recap' });
    const app = t.app;
    const from = (address: string, search: string) => request(app).get('/api/unified/items').set('X-Forwarded-For', address).query({ search });
    expect((await from('203.0.113.5', 'teams')).status).toBe(200);
    expect((await from('203.0.113.5', 'meeting')).status).toBe(200);
    const refused = await from('203.0.113.5', 'recap');
    expect(refused.status).toBe(429);
    expect(refused.body.error.name).toBe('RateLimitError');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another client behind the same proxy has its own budget; the first one's answers already made stay open.
    expect((await from('198.51.100.7', 'recap')).status).toBe(200);
    expect((await from('203.0.113.5', 'teams')).status).toBe(200);
    // One budget whichever way a request is answered: the route of another endpoint counts against the same client.
    expect((await request(app).get('/api/roadmap/items/500001/history').set('X-Forwarded-For', '203.0.113.5')).status).toBe(429);
    expect((await request(app).get('/api/roadmap/items/500001/history').set('X-Forwarded-For', '192.0.2.9')).status).toBe(200);
  });

  it('gives each signed-in user and each API token a budget of their own', async () => {
    const t = await setUp();
    const { agent: ann } = await signIn(t.app, t.database.db, { email: 'ann@example.com' });
    const { agent: bob } = await signIn(t.app, t.database.db, { email: 'bob@example.com' });
    const made = await bob.post('/api/tokens').send({ name: 'Script' });
    const token = made.body.token as string;
    for (const search of ['a1', 'a2']) expect((await ann.get('/api/unified/items').query({ search })).status).toBe(200);
    expect((await ann.get('/api/unified/items').query({ search: 'a3' })).status).toBe(429);
    // Bob, and Bob's token, still have theirs; guests have theirs.
    expect((await bob.get('/api/unified/items').query({ search: 'b1' })).status).toBe(200);
    expect((await request(t.app).get('/api/unified/items').set('Authorization', `Bearer ${token}`).query({ search: 't1' })).status).toBe(200);
    expect((await request(t.app).get('/api/unified/items').query({ search: 'g1' })).status).toBe(200);
  });

  it('counts every tool call of an MCP batch, and a feed only when it must be rendered', async () => {
    const t = await setUp();
    const { agent } = await signIn(t.app, t.database.db, { email: 'agent@example.com' });
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_items', arguments: {} } });
    const mcp = (body: unknown) =>
      agent
        .post('/api/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .set('Content-Type', 'application/json')
        .send(body as object);
    const batch = await mcp([call(1), call(2), call(3)]);
    expect(batch.status).toBe(429);
    expect(batch.headers['retry-after']).toBeDefined();

    // A guest's feed (a budget of its own).
    const feed = () => request(t.app).get('/api/feeds/items.rss').query({ sources: 'roadmap' });
    expect((await feed()).status).toBe(200);
    // The same feed at the same data version: from the cache, never counted.
    for (let i = 0; i < 5; i++) expect((await feed()).status).toBe(200);
  });
});
