import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { TestContext } from '../context.js';
import { createUser, sessionCookieFor, signIn } from '../factories.js';
import { securityContext } from './harness.js';

/**
 * ASVS V3.3 / V13.1: when an admin ends a user's sessions or resets their passkeys (an account taken over), the user's
 * personal API tokens stop working too, unless the admin asks to keep them (`?keepTokens=true`). A token is a
 * credential like a session: whoever held the account may have made one.
 */
let t: TestContext;
let admin: string;
beforeAll(async () => {
  // The factor is not what is tried here: admins act with the factory's sessions.
  t = await securityContext({ ADMIN_SECOND_FACTOR: 'off' });
  admin = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'token-admin@example.com', roles: ['Admin'] })).id);
});
afterAll(async () => {
  await t.close();
});

const asAdmin = (r: request.Test) => r.set('Cookie', admin).set('Sec-Fetch-Site', 'same-origin');
const bearer = (token: string) => request(t.app).get('/api/unified/items').set('Authorization', `Bearer ${token}`);

/** A user with a session and one API token that works. */
async function userWithToken(email: string) {
  const { user, agent } = await signIn(t.app, t.ctx.db, { email });
  const made = await agent.post('/api/tokens').set('Sec-Fetch-Site', 'same-origin').send({ name: 'Script' });
  expect(made.status).toBe(201);
  const token = (made.body as { token: string }).token;
  expect((await bearer(token)).status).toBe(200);
  return { user, token };
}

describe('An admin ends a user’s sessions', () => {
  it('revokes their API tokens too', async () => {
    const { user, token } = await userWithToken('taken-over@example.com');
    const res = await asAdmin(request(t.app).delete(`/api/admin/app-users/${user.id}/sessions`));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      ended: 1,
      revokedTokens: 1,
      message: 'Ended 1 session of taken-over@example.com and revoked 1 API token',
    });
    expect((await bearer(token)).status).toBe(401);
  });

  it('keeps them when asked to, and refuses a keepTokens that is not true or false', async () => {
    const { user, token } = await userWithToken('keeps-scripts@example.com');
    const bad = await asAdmin(request(t.app).delete(`/api/admin/app-users/${user.id}/sessions?keepTokens=yes`));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/keepTokens/);
    const res = await asAdmin(request(t.app).delete(`/api/admin/app-users/${user.id}/sessions?keepTokens=true`));
    expect(res.body).toMatchObject({ ended: 1, revokedTokens: 0, message: 'Ended 1 session of keeps-scripts@example.com' });
    expect((await bearer(token)).status).toBe(200);
  });
});

describe('An admin resets a user’s passkeys', () => {
  it('revokes their API tokens too', async () => {
    const { user, token } = await userWithToken('lost-phone@example.com');
    const res = await asAdmin(request(t.app).delete(`/api/admin/users/${user.id}/passkeys`));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('0 passkeys removed, 1 API token revoked and 1 session ended: they sign in with a code and add a new passkey');
    expect((await bearer(token)).status).toBe(401);
  });

  it('keeps them when asked to', async () => {
    const { user, token } = await userWithToken('keeps-token@example.com');
    const res = await asAdmin(request(t.app).delete(`/api/admin/users/${user.id}/passkeys?keepTokens=true`));
    expect(res.body.message).toBe('0 passkeys removed and 1 session ended: they sign in with a code and add a new passkey');
    expect((await bearer(token)).status).toBe(200);
  });
});
