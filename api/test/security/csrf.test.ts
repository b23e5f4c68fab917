import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { endpointList } from '@radar/contracts';
import { latestCodeFromOutbox } from '../auth-helpers.js';
import { call, urlOf, useSecurityContext } from './harness.js';

/**
 * ASVS V4.2.2 / V13 (CSRF), generated from the endpoint table: every state-changing route refuses another origin and
 * the opaque `null` origin (sandboxed frames, some redirects), and every route that takes a body refuses anything but
 * JSON — the `text/plain` body a cross-site form can send without a preflight. The caller is an Admin with a valid
 * session, so the refusal is the CSRF defence and not a missing right. SameSite=Lax on the cookie is the second layer.
 */
const suite = useSecurityContext();

const stateChanging = endpointList.filter((e) => e.method !== 'GET').map((e) => [`${e.method} ${e.path}`, e] as const);
const withBody = endpointList.filter((e) => e.body).map((e) => [`${e.method} ${e.path}`, e] as const);

describe.each(stateChanging)('%s', (_route, endpoint) => {
  it.each(['https://evil.example', 'null', 'http://localhost:8080.evil.example'])('refuses Origin %s with 403', async (origin) => {
    const res = await call(suite.t, endpoint.method, urlOf(endpoint), await suite.users.cookie('Admin'))
      .set('Origin', origin)
      .set('Content-Type', 'application/json')
      .send('{}');
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ name: 'NotAllowedError', message: 'Cross-origin request refused' });
  });
});

describe.each(stateChanging)('%s without Origin', (_route, endpoint) => {
  it('refuses a signed-in write that says neither its Origin nor its Sec-Fetch-Site, or says another site', async () => {
    const cookie = String(await suite.users.cookie('Admin'));
    const send = (site?: string) => {
      const req = request(suite.t.app)[endpoint.method.toLowerCase() as 'post'](urlOf(endpoint)).set('Cookie', cookie).set('Content-Type', 'application/json');
      return (site ? req.set('Sec-Fetch-Site', site) : req).send('{}');
    };
    const bare = await send();
    expect(bare.status).toBe(403);
    expect(bare.body.error).toEqual({ name: 'NotAllowedError', message: 'A signed-in write must come from this site: the request has no Origin header' });
    for (const site of ['cross-site', 'same-site', 'none']) {
      const res = await send(site);
      expect([site, res.status, res.body.error?.message]).toEqual([site, 403, 'Cross-origin request refused']);
    }
  });
});

describe('writes without a session cookie', () => {
  it('pass without Origin when they carry an API token (no ambient credential to borrow)', async () => {
    const created = await call(suite.t, 'POST', '/api/tokens', await suite.users.cookie('User'))
      .set('Content-Type', 'application/json')
      .send({ name: 'csrf check', scope: 'read_subscriptions' });
    expect(created.status).toBe(201);
    // Follows an item that does not exist: past the origin check, the api answers about the item.
    const res = await request(suite.t.app)
      .post('/api/notification-subscriptions')
      .set('Authorization', `Bearer ${created.body.token}`)
      .set('Content-Type', 'application/json')
      .send({ subscriptionType: 'item', itemId: '999999999', itemType: 'roadmap' });
    expect(res.body.error?.name).not.toBe('NotAllowedError');
    expect([201, 200, 404]).toContain(res.status);
  });
});

describe.each(withBody)('%s', (_route, endpoint) => {
  it.each([
    ['text/plain', '{"email":"victim@example.com","firstName":"A","lastName":"B"}'],
    ['application/x-www-form-urlencoded', 'email=victim%40example.com'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--'],
  ])('refuses a %s body with 415, even from its own origin', async (type, body) => {
    const res = await call(suite.t, endpoint.method, urlOf(endpoint), await suite.users.cookie('Admin'))
      .set('Origin', 'http://localhost:8080')
      .set('Content-Type', type)
      .send(body);
    expect(res.status).toBe(415);
    expect(res.body.error.name).toBe('UnsupportedMediaTypeError');
  });
});

describe('what a forged request would have done stays undone', () => {
  it('a text/plain JSON sign-up from another site sends no mail and stores nothing', async () => {
    const forged = await request(suite.t.app)
      .post('/api/auth/signup')
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify({ email: 'forged@example.com', firstName: 'F', lastName: 'G' }));
    expect(forged.status).toBe(415);
    const { rows } = await suite.t.database.pool.query(
      `SELECT (SELECT count(*) FROM mail_outbox WHERE to_address = 'forged@example.com') + (SELECT count(*) FROM pending_signups WHERE email = 'forged@example.com') AS n`,
    );
    expect(Number(rows[0].n)).toBe(0);
  });

  it('a cross-site subscribe with the victim cookie changes nothing', async () => {
    const cookie = await suite.users.cookie('User');
    const res = await call(suite.t, 'POST', '/api/weekly-digest/subscribe-authenticated', cookie).set('Origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect((await call(suite.t, 'GET', '/api/weekly-digest/status', cookie)).body.isSubscribed).toBe(false);
  });

  it('the session cookie is HttpOnly and SameSite=Lax (browsers do not send it on cross-site POSTs)', async () => {
    await request(suite.t.app).post('/api/auth/signup').send({ email: 'cookie@example.com', firstName: 'C', lastName: 'K' });
    const code = await latestCodeFromOutbox(suite.t, 'cookie@example.com');
    const res = await request(suite.t.app).post('/api/auth/verify-code').send({ email: 'cookie@example.com', code });
    expect(String(res.headers['set-cookie'])).toMatch(/^radar_session=[^;]+;.*; HttpOnly; SameSite=Lax$/);
  });

  it('a link from another site to GET /api/logout does not sign out: the page asks, and its form only works same-origin', async () => {
    const cookie = await suite.users.cookie('User');
    const page = await call(suite.t, 'GET', '/api/logout', cookie).set('Sec-Fetch-Site', 'cross-site');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script');
    expect((await call(suite.t, 'GET', '/api/auth/user', cookie)).status).toBe(200);
    const forged = await call(suite.t, 'POST', '/api/logout', cookie).set('Origin', 'https://evil.example');
    expect(forged.status).toBe(403);
    expect((await call(suite.t, 'GET', '/api/auth/user', cookie)).status).toBe(200);
  });
});
