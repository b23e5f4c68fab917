import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { createUser, sessionCookieFor, signIn, signedInAgent } from '../../../../test/factories.js';

const PATHS: ['get' | 'post' | 'delete', string, object?][] = [
  ['get', '/api/dev/current-impersonation'],
  ['post', '/api/dev/impersonate-role', { role: 'User' }],
  ['delete', '/api/dev/clear-impersonation'],
];

describe.each([
  ['production', { NODE_ENV: 'production' }],
  ['test (default off)', {}],
  ['explicitly disabled in development', { NODE_ENV: 'development', IMPERSONATION_ENABLED: 'false' }],
])('impersonation when %s', (_label, env: Record<string, string>) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(env);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 exactly like an unknown route, even to an admin', async () => {
    const { agent } = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    for (const [method, path, body] of PATHS) {
      const res = await agent[method](path).send(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { name: 'NotFoundError', message: `No route for ${method.toUpperCase()} ${path}` } });
      expect((await request(t.app)[method](path).send(body)).status).toBe(404);
    }
  });
});

describe('impersonation when enabled', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ IMPERSONATION_ENABLED: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is on by default in development', async () => {
    const dev = await createTestContext({ NODE_ENV: 'development' });
    try {
      const { agent } = await signIn(dev.app, dev.ctx.db, { roles: ['Admin'] });
      expect((await agent.get('/api/dev/current-impersonation')).body).toEqual({ isImpersonating: false, impersonatedRole: null });
    } finally {
      await dev.close();
    }
  });

  it('requires sign-in and a real Admin role', async () => {
    for (const [method, path, body] of PATHS) {
      expect((await request(t.app)[method](path).send(body)).status).toBe(401);
    }
    const { agent: moderator } = await signIn(t.app, t.ctx.db, { roles: ['Moderator'] });
    for (const [method, path, body] of PATHS) {
      expect((await moderator[method](path).send(body)).status).toBe(403);
    }
    // A moderator cannot grant themself Admin through the tool.
    expect((await moderator.post('/api/dev/impersonate-role').send({ role: 'Admin' })).status).toBe(403);
    expect((await moderator.get('/api/admin/roles')).status).toBe(403);
  });

  it('never applies an impersonated role to a user who is not really an Admin', async () => {
    const { user, agent } = await signIn(t.app, t.ctx.db, { roles: ['User'] });
    // A stale impersonation left on a session (e.g. roles changed directly in the database) must be ignored.
    await t.database.pool.query("UPDATE sessions SET impersonated_role = 'Admin' WHERE user_id = $1", [user.id]);
    expect((await agent.get('/api/admin/roles')).status).toBe(403);
    const me = await agent.get('/api/auth/session-user');
    expect(me.body.user.roles.map((r: { name: string }) => r.name)).toEqual(['User']);
  });

  it('validates the role', async () => {
    const { agent } = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    for (const body of [{}, { role: 'Superuser' }, { role: 'None' }]) {
      const res = await agent.post('/api/dev/impersonate-role').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('role');
    }
  });

  it("changes the effective roles of the caller's own session only, and can always be cleared", async () => {
    const { user, agent } = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    const otherSession = await signedInAgent(t.app, t.ctx.db, user);

    const started = await agent.post('/api/dev/impersonate-role').send({ role: 'User' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ message: 'Now impersonating role: User' });
    expect((await agent.get('/api/dev/current-impersonation')).body).toEqual({ isImpersonating: true, impersonatedRole: 'User' });

    // Effective role is User: the admin API refuses; the same user's other session is unaffected.
    expect((await agent.get('/api/admin/roles')).status).toBe(403);
    expect((await otherSession.get('/api/admin/roles')).status).toBe(200);
    expect((await otherSession.get('/api/dev/current-impersonation')).body).toEqual({ isImpersonating: false, impersonatedRole: null });

    // Switching and clearing still work while impersonating (the tool checks the real roles).
    await agent.post('/api/dev/impersonate-role').send({ role: 'Moderator' }).expect(200);
    expect((await agent.get('/api/dev/current-impersonation')).body.impersonatedRole).toBe('Moderator');
    const cleared = await agent.delete('/api/dev/clear-impersonation');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ message: 'Impersonation cleared' });
    expect((await agent.get('/api/dev/current-impersonation')).body).toEqual({ isImpersonating: false, impersonatedRole: null });
    expect((await agent.get('/api/admin/roles')).status).toBe(200);

    // role: null clears too.
    await agent.post('/api/dev/impersonate-role').send({ role: 'User' }).expect(200);
    const nulled = await agent.post('/api/dev/impersonate-role').send({ role: null });
    expect(nulled.body).toEqual({ message: 'Impersonation cleared' });
    expect((await agent.get('/api/admin/roles')).status).toBe(200);
  });

  it('rotates the session when impersonation starts or ends: the old token stops working', async () => {
    const admin = await createUser(t.ctx.db, { roles: ['Admin'] });
    const before = await sessionCookieFor(t.ctx.db, admin.id);
    const started = await request(t.app).post('/api/dev/impersonate-role').set('Cookie', before).set('Sec-Fetch-Site', 'same-origin').send({ role: 'User' });
    expect(started.status).toBe(200);
    const rotated = String(started.headers['set-cookie']).split(';')[0]!;
    expect(rotated).toMatch(/^radar_session=[A-Za-z0-9_-]{43}$/);
    expect(rotated).not.toBe(before);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', before).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', rotated).set('Sec-Fetch-Site', 'same-origin')).body.impersonatedRole).toBe('User');
    const cleared = await request(t.app).delete('/api/dev/clear-impersonation').set('Cookie', rotated).set('Sec-Fetch-Site', 'same-origin');
    const again = String(cleared.headers['set-cookie']).split(';')[0]!;
    expect((await request(t.app).get('/api/auth/user').set('Cookie', rotated).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', again).set('Sec-Fetch-Site', 'same-origin')).body.impersonatedRole).toBeNull();
  });

  it('ends every session (and so any open impersonation) of a user who loses the Admin role', async () => {
    const { agent: boss } = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    const { user, agent } = await signIn(t.app, t.ctx.db, { roles: ['Admin'] });
    await agent.post('/api/dev/impersonate-role').send({ role: 'Admin' }).expect(200);
    const adminRole = (await t.database.pool.query(`SELECT id FROM roles WHERE name = 'Admin'`)).rows[0].id;
    await boss.delete(`/api/admin/user-roles/${user.id}/${adminRole}`).expect(200);
    expect((await agent.get('/api/admin/roles')).status).toBe(401);
    const rows = await t.database.pool.query('SELECT impersonated_role FROM sessions WHERE user_id = $1', [user.id]);
    expect(rows.rows).toEqual([]);
  });
});
