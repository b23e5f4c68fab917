import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { createUser, sessionCookieFor, signIn } from '../../../../test/factories.js';
import { digestSubscribers, notificationSubscriptions } from '../../../db/schema/index.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
const q = (text: string, params: unknown[] = []) => t.database.pool.query(text, params).then((r) => r.rows);

beforeAll(async () => {
  t = await createTestContext();
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'], email: 'boss@example.com', firstName: 'Boss' });
});
afterAll(async () => {
  await t.close();
});

describe('app users', () => {
  it('lists users with isEmailVerified and hasWeeklyDigestSubscription', async () => {
    const verifiedWithDigest = await createUser(t.ctx.db, { email: 'digest-by-id@example.com' });
    const byEmail = await createUser(t.ctx.db, { email: 'digest-by-mail@example.com' });
    const inactive = await createUser(t.ctx.db, { email: 'digest-off@example.com' });
    await t.database.pool.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [byEmail.id]);
    await t.ctx.db.insert(digestSubscribers).values([
      { email: 'other-address@example.com', userId: verifiedWithDigest.id, origin: 'account' },
      { email: 'digest-by-mail@example.com', origin: 'signup' },
      { email: 'digest-off@example.com', userId: inactive.id, origin: 'account', isActive: false },
    ]);
    const res = await admin.agent.get('/api/admin/app-users');
    expect(res.status).toBe(200);
    const find = (id: number) => res.body.find((u: { id: number }) => u.id === id);
    expect(find(verifiedWithDigest.id)).toMatchObject({ email: 'digest-by-id@example.com', isEmailVerified: true, hasWeeklyDigestSubscription: true });
    expect(find(byEmail.id)).toMatchObject({ isEmailVerified: false, hasWeeklyDigestSubscription: true });
    expect(find(inactive.id)).toMatchObject({ hasWeeklyDigestSubscription: false });
    expect(find(admin.user.id)).toEqual({
      id: admin.user.id,
      firstName: 'Boss',
      lastName: expect.any(String),
      email: 'boss@example.com',
      isEmailVerified: true,
      hasWeeklyDigestSubscription: false,
      lastLoginAt: null,
      createdAt: expect.any(String),
    });
  });

  it('deletes a user with their sessions, subscriptions and assignments', async () => {
    const victim = await createUser(t.ctx.db, { roles: ['Moderator'], email: 'victim@example.com' });
    const cookie = await sessionCookieFor(t.ctx.db, victim.id);
    await t.ctx.db.insert(notificationSubscriptions).values({ userId: victim.id, itemType: 'roadmap', itemExternalId: '123' });
    await t.ctx.db.insert(digestSubscribers).values({ email: 'victim@example.com', userId: victim.id, origin: 'account' });
    expect((await request(t.app).get('/api/admin/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(403);

    const res = await admin.agent.delete(`/api/admin/app-users/${victim.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User victim@example.com deleted' });
    for (const table of ['sessions', 'user_roles', 'notification_subscriptions']) {
      expect(await q(`SELECT 1 FROM ${table} WHERE user_id = $1`, [victim.id])).toEqual([]);
    }
    expect(await q(`SELECT 1 FROM digest_subscribers WHERE email = 'victim@example.com'`)).toEqual([]);
    expect((await request(t.app).get('/api/admin/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await admin.agent.delete(`/api/admin/app-users/${victim.id}`)).status).toBe(404);
    expect((await admin.agent.delete('/api/admin/app-users/zero')).status).toBe(400);
  });

  it('refuses to let an admin delete themself', async () => {
    const res = await admin.agent.delete(`/api/admin/app-users/${admin.user.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('You cannot delete your own account');
  });
});
