import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { PASSKEYS_MAX } from '@radar/contracts';
import { createTestContext, type TestContext } from '../context.js';
import { createUser, sessionCookieFor, signIn } from '../factories.js';
import { createSoftwareAuthenticator } from '../software-authenticator.js';
import { hashSessionToken, newSessionToken } from '../../src/http/auth.js';
import { SESSION_COOKIE } from '../../src/http/session-policy.js';
import { issueRecoveryCode } from '../../src/features/auth/auth.service.js';
import { PASSKEY_SIGN_INS_PER_ADDRESS } from '../../src/features/passkeys/passkeys.endpoints.js';

const ORIGIN = 'http://localhost:8080';
const SAME_ORIGIN = { origin: ORIGIN };

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Adds a passkey through the API as the profile page does: options, the authenticator's answer, a name. */
async function addPasskey(agent: request.Agent, authenticator: ReturnType<typeof createSoftwareAuthenticator>, name: string) {
  const options = await agent.post('/api/auth/passkeys/registration-options').set(SAME_ORIGIN);
  expect(options.status).toBe(200);
  return agent
    .post('/api/auth/passkeys')
    .set(SAME_ORIGIN)
    .send({ name, credential: authenticator.register(options.body, ORIGIN) });
}

/** Signs in with a passkey in a fresh client, as the auth dialog does. */
async function passkeySignIn(app: TestContext['app'], authenticator: ReturnType<typeof createSoftwareAuthenticator>, tweak?: { counter?: number }) {
  const client = request.agent(app);
  const options = await client.post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
  expect(options.status).toBe(200);
  const answer = await client
    .post('/api/auth/passkeys/sign-in')
    .set(SAME_ORIGIN)
    .send({ credential: authenticator.signIn(options.body, ORIGIN, tweak) });
  return { client, answer, options: options.body as { challenge: string; rpId: string; allowCredentials?: unknown[] } };
}

describe('passkeys', () => {
  it('adds a passkey on the profile, signs in with it instead of a code, and lists when it was used', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { user, agent } = await signIn(t.app, t.database.db, { email: 'pat@example.com', firstName: 'Pat', lastName: 'Doe' });
    const authenticator = createSoftwareAuthenticator();

    const options = await agent.post('/api/auth/passkeys/registration-options').set(SAME_ORIGIN);
    expect(options.body).toMatchObject({
      rp: { name: 'M365 Radar', id: 'localhost' },
      user: { name: 'pat@example.com', displayName: 'Pat Doe' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    // The user handle does not carry the e-mail address or the id.
    expect(Buffer.from(options.body.user.id as string, 'base64url').toString('utf8')).not.toMatch(/pat|^\d+$/);
    const added = await agent
      .post('/api/auth/passkeys')
      .set(SAME_ORIGIN)
      .send({ name: 'Laptop', credential: authenticator.register(options.body, ORIGIN) });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Laptop', lastUsedAt: null, synced: true });
    expect(JSON.stringify(added.body)).not.toMatch(/publicKey|credential/);

    t.clock.advance(60_000);
    const { client, answer, options: signInOptions } = await passkeySignIn(t.app, authenticator);
    expect(signInOptions).toMatchObject({ rpId: 'localhost', userVerification: 'preferred' });
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: 'Signed in with your passkey' });
    const me = await client.get('/api/auth/session-user');
    expect(me.body.user).toMatchObject({ id: user.id, email: 'pat@example.com' });
    const { rows } = await t.database.pool.query<{ verified_with: string }>('SELECT verified_with FROM sessions WHERE user_id = $1 ORDER BY created_at', [
      user.id,
    ]);
    expect(rows.map((r) => r.verified_with).sort()).toEqual(['code', 'passkey']);

    const listed = await client.get('/api/auth/passkeys');
    expect(listed.body).toEqual([expect.objectContaining({ name: 'Laptop', lastUsedAt: '2026-11-26T12:01:00.000Z' })]);
    const renamed = await client.patch(`/api/auth/passkeys/${added.body.id}`).set(SAME_ORIGIN).send({ name: 'Work laptop' });
    expect(renamed.body.name).toBe('Work laptop');
    expect((await client.patch(`/api/auth/passkeys/${added.body.id}`).set(SAME_ORIGIN).send({ name: '' })).body.error.message).toMatch(/name/);
  });

  it('refuses a replayed answer, another site, a cloned authenticator, a stranger’s passkey and one removed', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { agent } = await signIn(t.app, t.database.db, { email: 'pat@example.com' });
    const { agent: other } = await signIn(t.app, t.database.db, { email: 'other@example.com' });
    const authenticator = createSoftwareAuthenticator();
    const added = await addPasskey(agent, authenticator, 'Phone');
    expect(added.status).toBe(201);

    // The same answer twice: the challenge was used up by the first.
    const client = request.agent(t.app);
    const options = await client.post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
    const credential = authenticator.signIn(options.body, ORIGIN);
    expect((await client.post('/api/auth/passkeys/sign-in').set(SAME_ORIGIN).send({ credential })).status).toBe(200);
    const replay = await client.post('/api/auth/passkeys/sign-in').set(SAME_ORIGIN).send({ credential });
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toBe('The passkey prompt expired: try again');

    // Made for another origin (a phishing site): refused.
    const phishing = await request(t.app).post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
    const elsewhere = await request(t.app)
      .post('/api/auth/passkeys/sign-in')
      .set(SAME_ORIGIN)
      .send({ credential: authenticator.signIn(phishing.body, 'https://radar-login.example.net') });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error.message).toBe('This passkey could not be verified: try again, or sign in with a code');

    // A counter that does not move forward: a cloned authenticator.
    expect((await passkeySignIn(t.app, authenticator, { counter: 1 })).answer.status).toBe(401);

    // An expired prompt.
    const late = await request(t.app).post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
    t.clock.advance(6 * 60 * 1000);
    const lateAnswer = await request(t.app)
      .post('/api/auth/passkeys/sign-in')
      .set(SAME_ORIGIN)
      .send({ credential: authenticator.signIn(late.body, ORIGIN) });
    expect(lateAnswer.body.error.message).toBe('The passkey prompt expired: try again');

    // A registration answer made for another user's options is refused; a stranger cannot rename or remove it.
    const theirs = await other.post('/api/auth/passkeys/registration-options').set(SAME_ORIGIN);
    const stolen = await agent
      .post('/api/auth/passkeys')
      .set(SAME_ORIGIN)
      .send({ name: 'X', credential: authenticator.register(theirs.body, ORIGIN) });
    expect(stolen.status).toBe(400);
    expect((await other.delete(`/api/auth/passkeys/${added.body.id}`).set(SAME_ORIGIN)).status).toBe(404);
    expect((await other.patch(`/api/auth/passkeys/${added.body.id}`).set(SAME_ORIGIN).send({ name: 'Mine' })).status).toBe(404);

    // Removed: it no longer signs in.
    expect((await agent.delete(`/api/auth/passkeys/${added.body.id}`).set(SAME_ORIGIN)).body).toEqual({
      success: true,
      message: 'Passkey removed: it no longer signs you in',
    });
    const gone = await passkeySignIn(t.app, authenticator);
    expect(gone.answer.status).toBe(401);
    expect(gone.answer.body.error.message).toBe('This passkey is not registered here: sign in with a code, then add it on your profile');
    expect((await request(t.app).get('/api/auth/passkeys')).status).toBe(401);
  });

  it('excludes passkeys already added, caps them per user, and limits sign-in attempts per network', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { agent } = await signIn(t.app, t.database.db, { email: 'pat@example.com' });
    const authenticator = createSoftwareAuthenticator();
    for (let i = 0; i < PASSKEYS_MAX; i++) expect((await addPasskey(agent, authenticator, `Key ${i + 1}`)).status).toBe(201);
    const options = await agent.post('/api/auth/passkeys/registration-options').set(SAME_ORIGIN);
    expect(options.status).toBe(409);
    await agent.delete(`/api/auth/passkeys/${(await agent.get('/api/auth/passkeys')).body[0].id}`).set(SAME_ORIGIN);
    const again = await agent.post('/api/auth/passkeys/registration-options').set(SAME_ORIGIN);
    expect(again.body.excludeCredentials).toHaveLength(PASSKEYS_MAX - 1);

    for (let i = 0; i < PASSKEY_SIGN_INS_PER_ADDRESS; i++) await request(t.app).post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
    const limited = await request(t.app).post('/api/auth/passkeys/sign-in-options').set(SAME_ORIGIN);
    expect(limited.status).toBe(429);
    expect(limited.headers['ratelimit-policy']).toBeDefined();
  });

  it('admin routes want a passkey sign-in from an admin who has one, and a recent code from one who has none', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { user: admin } = await signIn(t.app, t.database.db, { email: 'boss@example.com', roles: ['Admin'] });
    /** A session of a code sign-in made `hoursAgo` (by the test clock). */
    const codeSession = async (hoursAgo: number) => {
      const agent = request.agent(t!.app).set('Sec-Fetch-Site', 'same-origin');
      const at = new Date(t!.clock.now().getTime() - hoursAgo * 3600_000);
      const token = newSessionToken();
      await t!.database.pool.query(
        `INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, verified_with) VALUES ($1, $2, $3, $4, $5, 'code')`,
        [hashSessionToken(token), admin.id, at, t!.clock.now(), new Date('2100-01-01')],
      );
      return agent.set('Cookie', `${SESSION_COOKIE}=${encodeURIComponent(token)}`);
    };

    // No passkey: a code sign-in of 2 hours opens the admin pages (and the user is told to add one); one of 13 does not.
    const fresh = await codeSession(2);
    expect((await fresh.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'ok', hasPasskey: false });
    expect((await fresh.get('/api/admin/integrations')).status).toBe(200);
    const stale = await codeSession(13);
    const refused = await stale.get('/api/admin/integrations');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      name: 'SecondFactorRequired',
      message: 'Your sign-in is too old for the admin pages: sign in again, and add a passkey on your profile',
    });
    // Pages that are not admin pages stay open.
    expect((await stale.get('/api/auth/passkeys')).status).toBe(200);

    // With a passkey: a code sign-in no longer opens them; a passkey sign-in does. (The first passkey is added with a
    // code sign-in of the last ADMIN_REAUTH_MINUTES.)
    const authenticator = createSoftwareAuthenticator();
    expect((await addPasskey(await codeSession(0.1), authenticator, 'Laptop')).status).toBe(201);
    expect((await fresh.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'verify-passkey', hasPasskey: true });
    expect((await fresh.get('/api/admin/integrations')).body.error.name).toBe('SecondFactorRequired');
    const { client } = await passkeySignIn(t.app, authenticator);
    expect((await client.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'ok', hasPasskey: true });
    expect((await client.get('/api/admin/integrations')).status).toBe(200);
  });

  it('ADMIN_SECOND_FACTOR=passkey asks every admin for a passkey; off asks for none', async () => {
    t = await createTestContext({ ADMIN_SECOND_FACTOR: 'passkey' }, { now: '2026-11-26T12:00:00Z' });
    const boss = await createUser(t.database.db, { email: 'boss@example.com', roles: ['Admin'] });
    // A session proven with a code, no passkey proved in it.
    const cookie = await sessionCookieFor(t.database.db, boss.id, { factorVerifiedAt: null });
    const refused = await request(t.app).get('/api/admin/integrations').set('Cookie', cookie);
    expect(refused.body.error).toEqual({ name: 'SecondFactorRequired', message: 'Admin pages need a passkey: add one on your profile, then sign in with it' });
    await t.close();
    t = await createTestContext({ ADMIN_SECOND_FACTOR: 'off' }, { now: '2026-11-26T12:00:00Z' });
    const { agent: relaxed } = await signIn(t.app, t.database.db, { email: 'boss@example.com', roles: ['Admin'] });
    expect((await relaxed.get('/api/admin/integrations')).status).toBe(200);
  });

  it('another admin resets a colleague’s passkeys; the last admin recovers with a code printed on the server', async () => {
    t = await createTestContext({ ADMIN_SECOND_FACTOR: 'passkey' }, { now: '2026-11-26T12:00:00Z' });
    const { user: lost, agent: lostAgent } = await signIn(t.app, t.database.db, { email: 'lost@example.com', roles: ['Admin'] });
    const authenticator = createSoftwareAuthenticator();
    await addPasskey(lostAgent, authenticator, 'Old phone');
    const { client: colleague } = await (async () => {
      const { agent } = await signIn(t!.app, t!.database.db, { email: 'colleague@example.com', roles: ['Admin'] });
      const own = createSoftwareAuthenticator();
      await addPasskey(agent, own, 'Laptop');
      return passkeySignIn(t!.app, own);
    })();
    const { agent: moderator } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    expect((await moderator.delete(`/api/admin/users/${lost.id}/passkeys`)).status).toBe(403);
    expect((await colleague.delete('/api/admin/users/99999/passkeys').set(SAME_ORIGIN)).status).toBe(404);
    const reset = await colleague.delete(`/api/admin/users/${lost.id}/passkeys`).set(SAME_ORIGIN);
    expect(reset.body).toEqual({
      success: true,
      message: '1 passkey removed and 1 session ended: they sign in with a code and add a new passkey',
    });
    expect((await lostAgent.get('/api/auth/passkeys')).status).toBe(401);

    // The last admin with no colleague: a recovery code from the server opens a session that counts as the factor.
    await issueRecoveryCode(t.database.db, t.ctx.secret, 'colleague@example.com', t.clock.now());
    await expect(issueRecoveryCode(t.database.db, t.ctx.secret, 'nobody@example.com', t.clock.now())).rejects.toThrow(/not an admin/);
    const { code } = await issueRecoveryCode(t.database.db, t.ctx.secret, 'Lost@Example.com', t.clock.now());
    // A mailed code asked for meanwhile does not cancel it, and the recovery code is the one checked.
    const browser = request.agent(t.app).set('Sec-Fetch-Site', 'same-origin');
    expect((await browser.post('/api/auth/send-code').send({ email: 'lost@example.com' })).status).toBe(200);
    const verified = await browser.post('/api/auth/verify-code').send({ email: 'lost@example.com', code });
    expect(verified.status).toBe(200);
    expect((await browser.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'ok', hasPasskey: false });
    expect((await browser.get('/api/admin/integrations')).status).toBe(200);
    // Used once.
    expect((await request(t.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email: 'lost@example.com', code })).status).toBe(
      401,
    );
    // Expired after 15 minutes.
    const late = await issueRecoveryCode(t.database.db, t.ctx.secret, 'lost@example.com', t.clock.now());
    t.clock.advance(16 * 60_000);
    expect(
      (await request(t.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email: 'lost@example.com', code: late.code })).status,
    ).toBe(401);
  });
});
