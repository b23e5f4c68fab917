import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertRoadmapItem, sessionCookieFor, createUser } from '../../../test/factories.js';

// The whole fast path on and off must answer alike: same status, headers and body for every kind of request.
let t: TestContext;
let fast: Express;
let plain: Express;
let cookie: string;

beforeAll(async () => {
  t = await createTestContext();
  await insertRoadmapItem(t.database.db, { externalId: '770001', title: 'Microsoft Teams: fast path item' });
  cookie = await sessionCookieFor(t.database.db, (await createUser(t.database.db, { email: 'fast@example.com' })).id);
  fast = createApp({ ...t.ctx, config: { ...t.ctx.config, FAST_PATH: loadConfig({ NODE_ENV: 'test', FAST_PATH: 'all' }).FAST_PATH } });
  plain = createApp({ ...t.ctx, config: { ...t.ctx.config, FAST_PATH: [] } });
});
afterAll(async () => {
  await t?.close();
});

/** What a response says, without what differs between any two responses (the date, the request id). */
function answerOf(res: request.Response) {
  const { date: _date, 'x-request-id': _id, ...headers } = res.headers as Record<string, string>;
  return { status: res.status, headers, body: res.text || res.body };
}

const REQUESTS: [string, (app: Express) => request.Test][] = [
  ['the anonymous list (list lane)', (app) => request(app).get('/api/unified/items?search=Teams').set('Accept-Encoding', 'identity')],
  ['the anonymous list, brotli', (app) => request(app).get('/api/unified/items').set('Accept-Encoding', 'br')],
  ['the list, signed in', (app) => request(app).get('/api/unified/items').set('Cookie', cookie).set('Accept-Encoding', 'identity')],
  ['a parameterless route', (app) => request(app).get('/api/roadmap/filter-options').set('Accept-Encoding', 'identity')],
  ['a route in another case with a trailing slash', (app) => request(app).get('/API/Roadmap/Filter-Options/').set('Accept-Encoding', 'identity')],
  ['HEAD of a parameterless route', (app) => request(app).head('/api/dashboard/stats')],
  ['a route with a parameter', (app) => request(app).get('/api/roadmap/items/770001/history').set('Accept-Encoding', 'identity')],
  ['the session user', (app) => request(app).get('/api/auth/session-user').set('Cookie', cookie)],
  ['an invalid body', (app) => request(app).post('/api/contact').set('Origin', 'http://localhost:8080').send({ email: 'x' })],
  ['a foreign origin', (app) => request(app).post('/api/auth/logout').set('Cookie', cookie).set('Origin', 'https://evil.example')],
  ['an unknown /api path', (app) => request(app).get('/api/no-such-thing')],
  ['a role the caller lacks', (app) => request(app).get('/api/admin/roles').set('Cookie', cookie)],
  ['liveness', (app) => request(app).get('/healthz')],
];

describe('FAST_PATH', () => {
  it.each(REQUESTS)('answers %s the same with the fast path on and off', async (_name, send) => {
    const [withFastPath, without] = [await send(fast), await send(plain)];
    expect(answerOf(withFastPath)).toEqual(answerOf(without));
  });

  it('reads all, off, or a list of parts, and names the key for an unknown part', () => {
    const parse = (FAST_PATH: string) => loadConfig({ NODE_ENV: 'test', FAST_PATH }).FAST_PATH;
    expect(parse('all')).toEqual(['list-lane']);
    expect(parse('off')).toEqual([]);
    expect(parse(' List-Lane ')).toEqual(['list-lane']);
    expect(() => parse('list-lane,turbo')).toThrow(/FAST_PATH.*unknown part turbo/);
  });
});
