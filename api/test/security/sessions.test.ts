import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { TestContext } from '../context.js';
import { latestCodeFromOutbox, sessionCookieOf, signIn, signInWithRoles } from '../auth-helpers.js';
import { securityContext } from './harness.js';
import { createUser, sessionCookieFor } from '../factories.js';

/**
 * ASVS V3 (sessions): a new token at every sign-in (no fixation) and on every change of privileges; an idle timeout
 * (shorter for admins) and an absolute lifetime; "sign out everywhere"; the cookie's lifetime follows the session's.
 * The limits here: idle 7 days, admins 12 hours, absolute 30 days.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let t: TestContext;
beforeAll(async () => {
  t = await securityContext({ SESSION_TTL_DAYS: '7', SESSION_ABSOLUTE_DAYS: '30', ADMIN_SESSION_IDLE_HOURS: '12' });
});
afterAll(async () => {
  await t.close();
});

const me = (cookie: string) => request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
const maxAgeOf = (res: request.Response) => Number(/Max-Age=(\d+)/.exec(String(res.headers['set-cookie']))?.[1]);

describe('sign-in', () => {
  it('issues a new token and ends a session the browser brought along (no fixation)', async () => {
    const planted = await signIn(t, 'fixation@example.com');
    await request(t.app).post('/api/auth/send-code').send({ email: 'fixation@example.com' });
    const code = await latestCodeFromOutbox(t, 'fixation@example.com');
    const res = await request(t.app)
      .post('/api/auth/verify-code')
      .set('Cookie', planted)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ email: 'fixation@example.com', code });
    const fresh = sessionCookieOf(res);
    expect(fresh).not.toBe(planted);
    expect((await me(planted)).status).toBe(401);
    expect((await me(fresh)).status).toBe(200);
  });
});

describe('lifetimes', () => {
  it('a user idle for longer than SESSION_TTL_DAYS is signed out; activity slides it', async () => {
    const cookie = await signIn(t, 'idle@example.com');
    t.clock.advance(6 * DAY);
    const alive = await request(t.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(alive.body.user.email).toBe('idle@example.com');
    expect(maxAgeOf(alive)).toBe((7 * DAY) / 1000);
    t.clock.advance(7 * DAY + 1000);
    expect((await me(cookie)).status).toBe(401);
  });

  it('however active, a session ends SESSION_ABSOLUTE_DAYS after sign-in', async () => {
    const cookie = await signIn(t, 'absolute@example.com');
    for (let n = 0; n < 5; n++) {
      t.clock.advance(5 * DAY);
      expect((await me(cookie)).status).toBe(200);
    }
    // 25 days in: the cookie lives only as long as the absolute lifetime left (5 days), not another idle period.
    const late = await request(t.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(maxAgeOf(late)).toBe((5 * DAY) / 1000);
    t.clock.advance(5 * DAY);
    expect((await me(cookie)).status).toBe(401);
  });

  it('an admin session ends after ADMIN_SESSION_IDLE_HOURS without use; use keeps it alive', async () => {
    const cookie = await signInWithRoles(t, 'idle-admin@example.com', ['Admin']);
    const first = await request(t.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(maxAgeOf(first)).toBe((12 * HOUR) / 1000);
    expect((await request(t.app).get('/api/admin/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
    for (let n = 0; n < 4; n++) {
      t.clock.advance(11 * HOUR);
      expect((await me(cookie)).status).toBe(200);
    }
    // Alive, but its code sign-in is now older than ADMIN_CODE_FRESH_HOURS: the admin routes ask for the second factor.
    const stale = await request(t.app).get('/api/admin/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(stale.status).toBe(403);
    expect(stale.body.error.name).toBe('SecondFactorRequired');
    t.clock.advance(12 * HOUR + 1000);
    expect((await me(cookie)).status).toBe(401);
  });
});

describe('a change of privileges gives a new session', () => {
  it("a role given to or taken from a user ends that user's sessions; the admin's own stays", async () => {
    const admin = await signInWithRoles(t, 'granting-admin@example.com', ['Admin']);
    const target = await signIn(t, 'promoted@example.com');
    const users = (await request(t.app).get('/api/admin/app-users').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin')).body as {
      id: number;
      email: string;
    }[];
    const roles = (await request(t.app).get('/api/admin/roles').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin')).body as {
      id: number;
      name: string;
    }[];
    const userId = users.find((u) => u.email === 'promoted@example.com')!.id;
    const moderator = roles.find((r) => r.name === 'Moderator')!.id;
    const assigned = await request(t.app)
      .post('/api/admin/user-roles')
      .set('Cookie', admin)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ userId, roleId: moderator });
    expect(assigned.status).toBe(201);
    expect(assigned.headers['set-cookie']).toBeUndefined();
    expect((await me(target)).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
    // Signed in again, the user has the role; taking it away ends that session too.
    const again = await signIn(t, 'promoted@example.com');
    expect((await me(again)).body.roles.map((r: { name: string }) => r.name)).toContain('Moderator');
    await request(t.app).delete(`/api/admin/user-roles/${userId}/${moderator}`).set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin').expect(200);
    expect((await me(again)).status).toBe(401);
  });

  it('an admin who changes their own roles gets a new session in the same answer; the old token ends', async () => {
    const admin = await signInWithRoles(t, 'self-admin@example.com', ['Admin']);
    const other = await signInWithRoles(t, 'self-admin@example.com', []);
    const users = (await request(t.app).get('/api/admin/app-users').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin')).body as {
      id: number;
      email: string;
    }[];
    const roles = (await request(t.app).get('/api/admin/roles').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin')).body as {
      id: number;
      name: string;
    }[];
    const self = users.find((u) => u.email === 'self-admin@example.com')!.id;
    const res = await request(t.app)
      .post('/api/admin/user-roles')
      .set('Cookie', admin)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ userId: self, roleId: roles.find((r) => r.name === 'Moderator')!.id });
    expect(res.status).toBe(201);
    const renewed = sessionCookieOf(res);
    expect((await me(admin)).status).toBe(401);
    expect((await me(other)).status).toBe(401);
    expect((await me(renewed)).body.roles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Moderator', 'User']);
  });

  it('deleting a role ends the sessions of everyone who held it', async () => {
    const admin = await signInWithRoles(t, 'role-deleter@example.com', ['Admin']);
    const role = (
      await request(t.app).post('/api/admin/roles').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin').send({ name: 'Auditor', permissions: [] })
    ).body as { id: number };
    const holder = await signIn(t, 'auditor@example.com');
    const users = (await request(t.app).get('/api/admin/app-users').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin')).body as {
      id: number;
      email: string;
    }[];
    const holderId = users.find((u) => u.email === 'auditor@example.com')!.id;
    await request(t.app)
      .post('/api/admin/user-roles')
      .set('Cookie', admin)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ userId: holderId, roleId: role.id })
      .expect(201);
    const holderAgain = await signIn(t, 'auditor@example.com');
    await request(t.app).delete(`/api/admin/roles/${role.id}`).set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin').expect(200);
    expect((await me(holderAgain)).status).toBe(401);
    expect((await me(holder)).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
  });

  it('starting and ending impersonation rotates the session', async () => {
    const admin = await signInWithRoles(t, 'impersonator@example.com', ['Admin']);
    const started = await request(t.app).post('/api/dev/impersonate-role').set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin').send({ role: 'User' });
    const asUser = sessionCookieOf(started);
    expect((await me(admin)).status).toBe(401);
    expect((await me(asUser)).body.impersonatedRole).toBe('User');
    const cleared = await request(t.app).delete('/api/dev/clear-impersonation').set('Cookie', asUser).set('Sec-Fetch-Site', 'same-origin');
    expect((await me(asUser)).status).toBe(401);
    expect((await me(sessionCookieOf(cleared))).body.impersonatedRole).toBeNull();
  });
});

describe('sessions you can see', () => {
  const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
  const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

  async function signInWith(email: string, userAgent: string): Promise<string> {
    await request(t.app).post('/api/auth/send-code').send({ email });
    const code = await latestCodeFromOutbox(t, email);
    return sessionCookieOf(await request(t.app).post('/api/auth/verify-code').set('User-Agent', userAgent).send({ email, code }));
  }
  const asUser = (cookie: string) => ({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' });

  it('lists the caller’s sessions with browser, system and network, and ends one of them', async () => {
    await signIn(t, 'devices@example.com');
    const laptop = await signInWith('devices@example.com', FIREFOX);
    const phone = await signInWith('devices@example.com', SAFARI);
    const list = await request(t.app).get('/api/auth/sessions').set(asUser(laptop));
    expect(list.status).toBe(200);
    const mine = list.body as { id: string; browser: string; os: string; network: string | null; current: boolean }[];
    expect(mine).toHaveLength(3);
    expect(mine.find((s) => s.current)).toMatchObject({ browser: 'Firefox 132', os: 'Windows 10' });
    expect(mine.find((s) => s.browser.startsWith('Safari'))).toMatchObject({ os: expect.stringMatching(/^iOS/), current: false });
    for (const s of mine) expect(s.network).toMatch(/\/(24|48)$/);
    // The id names the session without being it: 16 characters of its stored hash, never the cookie.
    expect(JSON.stringify(mine)).not.toContain(laptop.split('=')[1]!.split(';')[0]!);

    const phoneId = mine.find((s) => s.browser.startsWith('Safari'))!.id;
    expect((await request(t.app).delete(`/api/auth/sessions/${phoneId}`).set(asUser(laptop))).status).toBe(200);
    expect((await me(phone)).status).toBe(401);
    expect((await me(laptop)).status).toBe(200);
    // Another user cannot end it (or learn whether it exists).
    const other = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'someone-else@example.com' })).id);
    const currentId = mine.find((s) => s.current)!.id;
    expect((await request(t.app).delete(`/api/auth/sessions/${currentId}`).set(asUser(other))).status).toBe(404);
    expect((await request(t.app).delete('/api/auth/sessions/not-an-id').set(asUser(laptop))).status).toBe(400);
    // Ending this one signs out here.
    const self = await request(t.app).delete(`/api/auth/sessions/${currentId}`).set(asUser(laptop));
    expect(self.status).toBe(200);
    expect(String(self.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect((await me(laptop)).status).toBe(401);
  });

  it('lets an admin end every session of a user, and nobody else', async () => {
    // Made directly (not through sign-in codes), so this file stays within the per-network sign-in limit.
    const admin = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'session-admin@example.com', roles: ['Admin'] })).id);
    const ended = await createUser(t.ctx.db, { email: 'ended@example.com' });
    const victim = await sessionCookieFor(t.ctx.db, ended.id);
    const path = `/api/admin/app-users/${ended.id}/sessions`;
    expect((await request(t.app).delete(path).set(asUser(victim))).status).toBe(403);
    const res = await request(t.app).delete(path).set(asUser(admin));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, ended: 1, message: 'Ended 1 session of ended@example.com' });
    expect((await me(victim)).status).toBe(401);
    expect((await request(t.app).delete('/api/admin/app-users/999999/sessions').set(asUser(admin))).status).toBe(404);
  });
});

describe('sign out everywhere', () => {
  it('ends every session of the account', async () => {
    const one = await signIn(t, 'all-devices@example.com');
    const two = await signIn(t, 'all-devices@example.com');
    expect((await request(t.app).post('/api/auth/logout-everywhere').set('Cookie', two).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
    expect((await me(one)).status).toBe(401);
    expect((await me(two)).status).toBe(401);
  });
});

describe('over https', () => {
  let secure: TestContext;
  beforeAll(async () => {
    secure = await securityContext({ PUBLIC_URL: 'https://radar.example.com' });
  });
  afterAll(async () => {
    await secure.close();
  });

  it('the cookie is __Host-radar_session: Secure, Path=/, no Domain', async () => {
    const cookie = await signIn(secure, 'host-prefix@example.com');
    expect(cookie).toMatch(/^__Host-radar_session=/);
    const res = await request(secure.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(String(res.headers['set-cookie'])).toMatch(/^__Host-radar_session=[^;]+; Max-Age=\d+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
  });
});
