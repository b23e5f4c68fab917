import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { API_TOKENS_PER_USER, endpointList } from '@radar/contracts';
import { apiTokens } from '../../db/schema/index.js';
import { hashSessionToken } from '../../http/auth.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, insertRoadmapItem, sessionCookieFor, signIn } from '../../../test/factories.js';

let t: TestContext;
// Each test starts from its own database, so none depends on what another wrote.
beforeEach(async () => {
  t = await createTestContext();
  await insertRoadmapItem(t.database.db, { externalId: '480001', title: 'Token test item' });
});
afterEach(async () => {
  await t.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A signed-in user with one fresh token. */
async function userWithToken(name = 'Outlook on my laptop') {
  const signedIn = await signIn(t.app, t.database.db);
  const created = await signedIn.agent.post('/api/tokens').send({ name });
  expect(created.status).toBe(201);
  return { ...signedIn, created: created.body as { id: number; name: string; token: string; createdAt: string } };
}

describe('/api/tokens', () => {
  it('creates a token with the trimmed name and shows its secret once', async () => {
    const { created } = await userWithToken('  Outlook on my laptop  ');
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Outlook on my laptop',
      token: expect.stringMatching(/^rdr_[\w-]{43}$/),
      createdAt: '2026-02-07T12:00:00.000Z',
      // 90 days and read-only unless asked otherwise.
      expiresAt: '2026-05-08T12:00:00.000Z',
      scope: 'read',
    });
  });

  it('takes an expiry of at most a year and a scope, and mails the owner that a token was created', async () => {
    const { agent, user } = await signIn(t.app, t.database.db);
    const made = await agent.post('/api/tokens').send({ name: 'Script', expiresInDays: 365, scope: 'read_subscriptions' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ expiresAt: '2027-02-07T12:00:00.000Z', scope: 'read_subscriptions' });
    const { rows } = await t.database.pool.query<{ kind: string; to_address: string; subject: string; text: string }>(
      `SELECT kind, to_address, subject, text FROM mail_outbox WHERE kind = 'api-token-created'`,
    );
    expect(rows).toEqual([expect.objectContaining({ to_address: user.email, subject: expect.stringContaining('“Script”') })]);
    expect(rows[0]!.text).toContain('read and manage my subscriptions');
    expect(rows[0]!.text).toContain('Feb 7, 2027');
    for (const [body, field] of [
      [{ name: 'x', expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'x', scope: 'admin' }, 'scope'],
    ] as const) {
      const bad = await agent.post('/api/tokens').send(body);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain(field);
    }
  });

  it('stops answering once expired, and mails the owner a week before (once)', async () => {
    const { agent, user } = await signIn(t.app, t.database.db);
    const made = await agent.post('/api/tokens').send({ name: 'Short', expiresInDays: 10 });
    const token = made.body.token as string;
    t.clock.set('2026-02-12T12:00:00Z');
    expect(await t.ctx.services.tokens.noticeAndPrune()).toEqual({ expiryNotices: 1, expiredTokensDeleted: 0 });
    expect(await t.ctx.services.tokens.noticeAndPrune()).toEqual({ expiryNotices: 0, expiredTokensDeleted: 0 });
    const { rows } = await t.database.pool.query<{ to_address: string; subject: string }>(
      `SELECT to_address, subject FROM mail_outbox WHERE kind = 'api-token-expiring'`,
    );
    expect(rows).toEqual([{ to_address: user.email, subject: 'Your API token “Short” expires soon' }]);
    expect((await request(t.app).get('/api/unified/items').set(bearer(token))).status).toBe(200);
    t.clock.set('2026-02-17T12:00:01Z');
    const expired = await request(t.app).get('/api/unified/items').set(bearer(token));
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired on 2026-02-17/);
    expect(expired.headers['www-authenticate']).toMatch(/invalid_token/);
    // Listed as expired for a month, then deleted.
    expect((await agent.get('/api/tokens')).body[0]).toMatchObject({ name: 'Short', expiresAt: '2026-02-17T12:00:00.000Z' });
    t.clock.set('2026-03-20T12:00:00Z');
    expect(await t.ctx.services.tokens.noticeAndPrune()).toEqual({ expiryNotices: 0, expiredTokensDeleted: 1 });
  });

  it('stores only the hash of a token', async () => {
    const { created } = await userWithToken();
    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row!.tokenHash).toBe(hashSessionToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it('lists the caller’s tokens by prefix, never the secret', async () => {
    const { agent, created } = await userWithToken();
    const list = await agent.get('/api/tokens');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: created.id,
        name: 'Outlook on my laptop',
        prefix: `${created.token.slice(0, 8)}…`,
        createdAt: '2026-02-07T12:00:00.000Z',
        lastUsedAt: null,
        lastUsedNetwork: null,
        expiresAt: '2026-05-08T12:00:00.000Z',
        scope: 'read',
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.token);
  });

  it('shows another user none of them and lets them revoke none', async () => {
    const { created } = await userWithToken();
    const other = await signIn(t.app, t.database.db);
    expect((await other.agent.get('/api/tokens')).body).toEqual([]);
    expect((await other.agent.delete(`/api/tokens/${created.id}`)).status).toBe(404);
  });

  it('records when a token was last used', async () => {
    const { agent, created } = await userWithToken();
    expect((await request(t.app).get('/api/unified/items').set(bearer(created.token))).status).toBe(200);
    expect((await agent.get('/api/tokens')).body[0].lastUsedAt).toBe('2026-02-07T12:00:00.000Z');
  });

  it('revokes a token: it leaves the list and answers 401 with a Bearer challenge from then on', async () => {
    const { agent, created } = await userWithToken();
    const revoked = await agent.delete(`/api/tokens/${created.id}`);
    expect(revoked.body).toEqual({ success: true, message: 'Token revoked' });
    expect((await agent.get('/api/tokens')).body).toEqual([]);
    const after = await request(t.app).get('/api/unified/items').set(bearer(created.token));
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('The API token is not valid or was revoked');
    expect(after.headers['www-authenticate']).toMatch(/^Bearer realm="M365 Radar", error="invalid_token"/);
  });

  it('refuses a blank or too long name and a malformed id, naming the field', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    const blank = await agent.post('/api/tokens').send({ name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.error.issues[0]).toEqual({ path: 'name', message: 'Token name is required' });
    expect((await agent.post('/api/tokens').send({ name: 'x'.repeat(101) })).body.error.issues[0].path).toBe('name');
    expect((await agent.delete('/api/tokens/abc')).body.error.issues[0].path).toBe('id');
  });

  it('requires a signed-in session', async () => {
    expect((await request(t.app).get('/api/tokens')).status).toBe(401);
    expect((await request(t.app).post('/api/tokens').send({ name: 'x' })).status).toBe(401);
  });

  it(`limits a user to ${API_TOKENS_PER_USER} tokens`, async () => {
    const { agent } = await signIn(t.app, t.database.db);
    for (let i = 0; i < API_TOKENS_PER_USER; i++) expect((await agent.post('/api/tokens').send({ name: `t${i}` })).status).toBe(201);
    const over = await agent.post('/api/tokens').send({ name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(`You already have ${API_TOKENS_PER_USER} API tokens: revoke one you no longer use first`);
  });
});

describe('Authorization: Bearer <token>', () => {
  async function tokenFor(roles: string[], scope: 'read' | 'read_subscriptions' = 'read_subscriptions') {
    const user = await createUser(t.database.db, { roles });
    const cookie = await sessionCookieFor(t.database.db, user.id);
    const res = await request(t.app).post('/api/tokens').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ name: 'agent', scope });
    return { user, cookie, token: res.body.token as string };
  }

  it('a read token reads, and is refused (403) where subscriptions are managed', async () => {
    const { token } = await tokenFor(['User'], 'read');
    expect((await request(t.app).get('/api/unified/items').set(bearer(token))).status).toBe(200);
    expect((await request(t.app).get('/api/notification-subscriptions').set(bearer(token))).status).toBe(200);
    const sub = await request(t.app)
      .post('/api/notification-subscriptions')
      .set(bearer(token))
      .send({ subscriptionType: 'item', itemId: '480001', itemType: 'roadmap' });
    expect(sub.status).toBe(403);
    expect(sub.body.error.message).toMatch(/may only read/);
    expect((await request(t.app).post('/api/weekly-digest/subscribe-authenticated').set(bearer(token))).status).toBe(403);
  });

  it('records the network it was last used from (a /24), not the address', async () => {
    const { token, cookie } = await tokenFor(['User'], 'read');
    await request(t.app).get('/api/unified/items').set(bearer(token));
    const list = await request(t.app).get('/api/tokens').set('Cookie', cookie);
    expect(list.body[0].lastUsedNetwork).toMatch(/^(127\.0\.0\.0\/24|::\/48|[0-9a-f:]+\/48)$/);
  });

  it('works on read endpoints and the user’s own subscriptions', async () => {
    const { user, token } = await tokenFor(['User']);
    expect((await request(t.app).get('/api/unified/items').set(bearer(token))).body.total).toBeGreaterThan(0);
    const me = await request(t.app).get('/api/auth/user').set(bearer(token));
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    const sub = await request(t.app)
      .post('/api/notification-subscriptions')
      .set(bearer(token))
      .send({ subscriptionType: 'item', itemId: '480001', itemType: 'roadmap' });
    expect(sub.status).toBe(201);
    const subs = await request(t.app).get('/api/notification-subscriptions').set(bearer(token));
    expect(subs.body.map((s: { itemId: string }) => s.itemId)).toEqual(['480001']);
    expect((await request(t.app).delete(`/api/notification-subscriptions/${sub.body.id}`).set(bearer(token))).status).toBe(200);
    expect((await request(t.app).get('/api/weekly-digest/status').set(bearer(token))).body).toEqual({ isSubscribed: false, email: user.email });
    expect((await request(t.app).get('/api/feeds/items.rss').set(bearer(token))).status).toBe(200);
  });

  it('never grants moderator or admin rights: an admin’s token acts as a plain signed-in user', async () => {
    const { cookie, token } = await tokenFor(['Admin', 'Moderator', 'User']);
    // The same admin with the session cookie may do all of these.
    expect((await request(t.app).get('/api/admin/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
    const roles = await request(t.app).get('/api/auth/user-roles').set(bearer(token));
    expect(roles.body.map((r: { role: { name: string } }) => r.role.name)).toEqual(['User']);
    expect((await request(t.app).get('/api/auth/user').set(bearer(token))).body.roles.map((r: { name: string }) => r.name)).toEqual(['User']);
    // A token on a staff endpoint is refused, and so is a token sent alongside the admin's own cookie.
    for (const req of [
      request(t.app).get('/api/admin/roles').set(bearer(token)),
      request(t.app).get('/api/admin/roles').set(bearer(token)).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin'),
      request(t.app).put('/api/moderator/roadmap/480001').set(bearer(token)).send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' }),
    ]) {
      const res = await req;
      expect(res.status).toBe(403);
    }
    // Moderator notes stay hidden from a token.
    const list = await request(t.app).get('/api/unified/items').set(bearer(token));
    expect(list.body.items[0]).not.toHaveProperty('moderatorNotes');
  });

  it('is refused everywhere else, including token management and state changes that are not subscriptions', async () => {
    const { token } = await tokenFor(['User']);
    for (const [method, path, body] of [
      ['get', '/api/tokens', undefined],
      ['post', '/api/tokens', { name: 'minted by a token' }],
      ['post', '/api/contact', { firstName: 'A', lastName: 'B', email: 'a@example.com', message: 'hello there friend' }],
      ['post', '/api/auth/logout', undefined],
      ['get', '/api/auth/session-user', undefined],
    ] as const) {
      const res = await request(t.app)[method](path).set(bearer(token)).send(body);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.body.error.message).toBe('API tokens are accepted only on read endpoints and your own subscriptions; sign in for this');
    }
  });

  it('answers 401 to a malformed or foreign bearer value instead of treating the caller as a guest', async () => {
    for (const header of ['Bearer', 'Bearer rdr_unknown', 'Bearer some-other-token', 'Basic abc']) {
      const res = await request(t.app).get('/api/unified/items').set('Authorization', header);
      expect({ header, status: res.status }).toEqual({ header, status: 401 });
    }
  });

  it('is declared in the endpoint table only on reads and the caller’s own subscriptions', () => {
    const allowed = endpointList.filter((e) => e.tokenAccess);
    for (const e of allowed) {
      expect({ id: e.id, staff: ['moderator', 'admin', 'realAdmin'].includes(e.access) }).toEqual({ id: e.id, staff: false });
      const ownSubscription = ['subscriptions', 'digest'].includes(e.group) || e.id === 'mcp.message';
      expect({ id: e.id, readOrOwn: e.method === 'GET' || ownSubscription }).toEqual({ id: e.id, readOrOwn: true });
    }
    expect(allowed.some((e) => e.group === 'tokens')).toBe(false);
  });
});

describe('sign out everywhere and API tokens', () => {
  it('keeps the tokens unless asked, and with revokeTokens ends them too, in one step', async () => {
    const kept = await userWithToken();
    const plain = await kept.agent.post('/api/auth/logout-everywhere');
    expect(plain.body).toEqual({ success: true, message: expect.any(String), revokedTokens: 0 });
    expect((await request(t.app).get('/api/unified/items').set(bearer(kept.created.token))).status).toBe(200);

    const ended = await userWithToken();
    await ended.agent.post('/api/tokens').send({ name: 'second' });
    const both = await ended.agent.post('/api/auth/logout-everywhere').send({ revokeTokens: true });
    expect(both.body).toMatchObject({ success: true, revokedTokens: 2 });
    expect((await request(t.app).get('/api/unified/items').set(bearer(ended.created.token))).status).toBe(401);
    // Another user's tokens are untouched.
    expect((await request(t.app).get('/api/unified/items').set(bearer(kept.created.token))).status).toBe(200);
    const bad = await (await userWithToken()).agent.post('/api/auth/logout-everywhere').send({ revokeTokens: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('revokeTokens');
  });
});
