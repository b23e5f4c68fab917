import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../context.js';
import { createUser, insertMessage, sessionCookieFor } from '../factories.js';
import { latestCodeFromOutbox, latestMailTo, sessionCookieOf } from '../auth-helpers.js';
import { createSoftwareAuthenticator, type SoftwareAuthenticator } from '../software-authenticator.js';
import { insertTenant, receivedBy } from '../tenant-fixtures.js';
import { issueRecoveryCode } from '../../src/features/auth/auth.service.js';

/**
 * The admin second factor guards itself (ASVS V2/V3): whoever holds only an admin's mailbox (a code sign-in) cannot
 * remove the admin's passkeys, add their own, create API tokens or organisation channels and searches, use any
 * role-gated power, or see private tenants; a passkey proved with user verification within ADMIN_REAUTH_MINUTES
 * (a step-up that rotates the session) can, and a recovery code does once.
 */
const ORIGIN = 'http://localhost:8080';
const NOW = '2026-11-26T12:00:00Z';
const MINUTE = 60_000;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A browser agent carrying `cookie`, sending what our own pages send. */
const browser = (cookie: string) => request.agent(t!.app).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').set('Origin', ORIGIN);

/** A real code sign-in: what holding the mailbox gives. */
async function codeSignIn(email: string) {
  expect((await request(t!.app).post('/api/auth/send-code').set('Sec-Fetch-Site', 'same-origin').send({ email })).status).toBe(200);
  const code = await latestCodeFromOutbox(t!, email);
  const res = await request(t!.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email, code });
  expect(res.status).toBe(200);
  return sessionCookieOf(res);
}

/** An admin with a passkey added through the API, and a session of theirs that proved it (as the factory's do). */
async function adminWithPasskey(email = 'boss@example.com') {
  const admin = await createUser(t!.database.db, { email, roles: ['Admin'] });
  const authenticator = createSoftwareAuthenticator();
  const proven = browser(await sessionCookieFor(t!.database.db, admin.id));
  const added = await addPasskey(proven, authenticator, 'Laptop');
  expect(added.status).toBe(201);
  return { admin, authenticator, passkeyId: added.body.id as number };
}

async function addPasskey(agent: request.Agent, authenticator: SoftwareAuthenticator, name: string, tweak?: { userVerified?: boolean }) {
  const options = await agent.post('/api/auth/passkeys/registration-options');
  if (options.status !== 200) return options;
  return agent.post('/api/auth/passkeys').send({ name, credential: authenticator.register(options.body, ORIGIN, tweak) });
}

/** The step-up: options for the caller's own passkeys, the authenticator's answer; answers the response (and its new cookie). */
async function stepUp(agent: request.Agent, authenticator: SoftwareAuthenticator, tweak?: { userVerified?: boolean }) {
  const options = await agent.post('/api/auth/passkeys/reauth-options');
  expect(options.status).toBe(200);
  return {
    options: options.body,
    answer: await agent.post('/api/auth/passkeys/reauth').send({ credential: authenticator.signIn(options.body, ORIGIN, tweak) }),
  };
}

async function passkeySignIn(authenticator: SoftwareAuthenticator, tweak?: { userVerified?: boolean }) {
  const client = request.agent(t!.app).set('Sec-Fetch-Site', 'same-origin').set('Origin', ORIGIN);
  const options = await client.post('/api/auth/passkeys/sign-in-options');
  const answer = await client.post('/api/auth/passkeys/sign-in').send({ credential: authenticator.signIn(options.body, ORIGIN, tweak) });
  expect(answer.status).toBe(200);
  return browser(sessionCookieOf(answer));
}

const REAUTH = { name: 'ReauthenticationRequired', message: 'Confirm with your passkey to continue: this change needs a recent passkey check' };

describe('the mailbox alone does not reach an admin’s powers', () => {
  it('a code sign-in cannot remove the admin’s passkeys, add its own, or create a token; a passkey step-up can', async () => {
    t = await createTestContext({}, { now: NOW });
    const { admin, authenticator, passkeyId } = await adminWithPasskey();
    const elsewhere = await passkeySignIn(authenticator);
    const attacker = browser(await codeSignIn('boss@example.com'));

    const removal = await attacker.delete(`/api/auth/passkeys/${passkeyId}`);
    expect(removal.status).toBe(403);
    expect(removal.body.error).toEqual(REAUTH);
    const own = createSoftwareAuthenticator();
    const registration = await addPasskey(attacker, own, 'Attacker');
    expect(registration.status).toBe(403);
    expect(registration.body.error).toEqual(REAUTH);
    expect((await attacker.post('/api/tokens').send({ name: 'exfil', expiresInDays: 30, scope: 'read' })).body.error).toEqual(REAUTH);
    expect((await attacker.get('/api/admin/integrations')).body.error.name).toBe('SecondFactorRequired');
    expect((await attacker.get('/api/auth/passkeys')).body).toHaveLength(1);

    // The step-up asks for the user's own passkeys with user verification, and rotates the session.
    const ownerCookie = await codeSignIn('boss@example.com');
    const owner = browser(ownerCookie);
    const { options, answer } = await stepUp(owner, authenticator);
    expect(options).toMatchObject({
      userVerification: 'required',
      allowCredentials: [expect.objectContaining({ id: authenticator.credentials[0]!.id.toString('base64url') })],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: 'Confirmed with your passkey' });
    const rotated = browser(sessionCookieOf(answer));
    expect((await request(t.app).get('/api/auth/user').set('Cookie', ownerCookie)).status).toBe(401);
    expect((await rotated.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'ok', hasPasskey: true });
    expect((await rotated.post('/api/tokens').send({ name: 'ci', expiresInDays: 30, scope: 'read' })).status).toBe(201);

    // Removing a passkey mails the user and ends their other sessions, this one kept.
    const removed = await rotated.delete(`/api/auth/passkeys/${passkeyId}`);
    expect(removed.status).toBe(200);
    const mail = await latestMailTo(t, 'boss@example.com', 'passkey-removed');
    expect(mail?.subject).toBe('A passkey “Laptop” was removed from your M365 Radar account');
    expect(mail?.text).toContain('It no longer signs you in, and your other sessions were signed out.');
    expect(mail?.html).toContain('Review your passkeys');
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await attacker.get('/api/auth/user')).status).toBe(401);
    expect((await rotated.get('/api/auth/user')).body.id).toBe(admin.id);
    expect((await latestMailTo(t, 'boss@example.com', 'passkey-added'))?.subject).toBe('A passkey “Laptop” was added to your M365 Radar account');
  });

  it('the passkey proof lasts ADMIN_REAUTH_MINUTES; a stranger’s passkey or one without user verification proves nothing', async () => {
    t = await createTestContext({ ADMIN_REAUTH_MINUTES: '5' }, { now: NOW });
    const { authenticator } = await adminWithPasskey();
    const stranger = createSoftwareAuthenticator();
    const other = await createUser(t.database.db, { email: 'other@example.com' });
    expect((await addPasskey(browser(await sessionCookieFor(t.database.db, other.id)), stranger, 'Theirs')).status).toBe(201);

    const session = browser(await codeSignIn('boss@example.com'));
    const theirs = await session.post('/api/auth/passkeys/reauth-options');
    const wrongKey = await session.post('/api/auth/passkeys/reauth').send({ credential: stranger.signIn({ challenge: theirs.body.challenge }, ORIGIN) });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.body.error.issues).toEqual([{ path: 'credential', message: 'This passkey is not one of yours: choose a passkey of this account' }]);
    const presenceOnly = await stepUp(session, authenticator, { userVerified: false });
    expect(presenceOnly.answer.status).toBe(400);
    expect(presenceOnly.answer.body.error.issues[0].path).toBe('credential');

    // A passkey sign-in without user verification signs in, but is not the admin factor.
    const unverified = await passkeySignIn(authenticator, { userVerified: false });
    expect((await unverified.get('/api/auth/user')).body.secondFactor).toEqual({ state: 'verify-passkey', hasPasskey: true });
    expect((await unverified.get('/api/admin/integrations')).status).toBe(403);

    const verified = await passkeySignIn(authenticator);
    expect((await verified.get('/api/admin/integrations')).status).toBe(200);
    t.clock.advance(4 * MINUTE);
    expect((await verified.post('/api/tokens').send({ name: 'one', expiresInDays: 30, scope: 'read' })).status).toBe(201);
    t.clock.advance(2 * MINUTE);
    // Past the window: the admin pages stay open (the session proved the factor), guarded changes ask again.
    expect((await verified.get('/api/admin/integrations')).status).toBe(200);
    expect((await verified.post('/api/tokens').send({ name: 'two', expiresInDays: 30, scope: 'read' })).body.error).toEqual(REAUTH);
  });

  it('adding a passkey wants user verification; an admin without one adds the first with a code sign-in of the last minutes', async () => {
    t = await createTestContext({ ADMIN_SECOND_FACTOR: 'passkey' }, { now: NOW });
    await createUser(t.database.db, { email: 'new-admin@example.com', roles: ['Admin'] });
    const signedIn = browser(await codeSignIn('new-admin@example.com'));
    t.clock.advance(11 * MINUTE);
    const late = await addPasskey(signedIn, createSoftwareAuthenticator(), 'Laptop');
    expect(late.status).toBe(403);
    expect(late.body.error).toEqual({
      name: 'ReauthenticationRequired',
      message: 'Sign in again to add your first passkey: this needs a sign-in from the last 10 minutes',
    });

    const fresh = browser(await codeSignIn('new-admin@example.com'));
    const authenticator = createSoftwareAuthenticator();
    const presenceOnly = await addPasskey(fresh, authenticator, 'Old key', { userVerified: false });
    expect(presenceOnly.status).toBe(400);
    expect((await fresh.post('/api/auth/passkeys/registration-options')).body.authenticatorSelection).toMatchObject({ userVerification: 'required' });
    expect((await addPasskey(fresh, authenticator, 'Laptop')).status).toBe(201);
    // The second one wants the first.
    expect((await addPasskey(fresh, createSoftwareAuthenticator(), 'Phone')).body.error).toEqual(REAUTH);
  });
});

describe('an admin session without the factor has no admin powers anywhere', () => {
  it('sees only public tenants, has no moderator routes, and cannot add organisation channels or searches', async () => {
    t = await createTestContext({}, { now: NOW });
    await adminWithPasskey();
    const open = await insertTenant(t.database.db, { name: 'Public', visibility: 'public' });
    const closed = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'private' });
    const publicPost = await insertMessage(t.database.db, { title: 'Teams: public rollout' });
    const privatePost = await insertMessage(t.database.db, { title: 'Teams: Contoso only rollout' });
    await receivedBy(t.database.db, publicPost.id, [open.id]);
    await receivedBy(t.database.db, privatePost.id, [closed.id]);

    const codeOnly = browser(await codeSignIn('boss@example.com'));
    const list = await codeOnly.get('/api/unified/items');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Teams: public rollout');
    expect(list.text).not.toContain('Contoso only rollout');
    const moderated = await codeOnly.get('/api/triage/trackers');
    expect(moderated.status).toBe(403);
    expect(moderated.body.error.name).toBe('SecondFactorRequired');
    const channel = await codeOnly
      .post('/api/alert-channels')
      .send({ scope: 'organisation', kind: 'webhook', name: 'Exfil', url: 'https://hooks.example.com/x' });
    expect(channel.status).toBe(403);
    const search = await codeOnly
      .post('/api/saved-searches')
      .send({ scope: 'organisation', name: 'Everything', query: {}, alertOn: ['new'], schedule: 'instant', channelIds: [] });
    expect(search.status).toBe(403);

    // With the passkey proved, the same admin sees every tenant.
    const proven = browser(await sessionCookieFor(t.database.db, (await createUser(t.database.db, { email: 'second@example.com', roles: ['Admin'] })).id));
    expect((await proven.get('/api/unified/items')).text).toContain('Contoso only rollout');
  });
});

describe('a recovery code', () => {
  it('carries 128 bits, works once, and satisfies the factor for one guarded action', async () => {
    t = await createTestContext({ ADMIN_SECOND_FACTOR: 'passkey' }, { now: NOW });
    const { passkeyId } = await adminWithPasskey('lost@example.com');
    const { code } = await issueRecoveryCode(t.database.db, t.ctx.secret, 'lost@example.com', t.clock.now());
    expect(code).toMatch(/^[A-Z2-7]{26}$/);
    const grouped = code.toLowerCase().replace(/(.{5})/g, '$1-');
    const res = await request(t.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email: 'lost@example.com', code: grouped });
    expect(res.status).toBe(200);
    const recovered = browser(sessionCookieOf(res));
    expect((await request(t.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email: 'lost@example.com', code })).status).toBe(
      401,
    );
    expect((await recovered.get('/api/admin/integrations')).status).toBe(200);

    // The first guarded action (adding the new passkey) uses the proof up; the next needs the new passkey.
    const replacement = createSoftwareAuthenticator();
    expect((await addPasskey(recovered, replacement, 'New phone')).status).toBe(201);
    expect((await recovered.delete(`/api/auth/passkeys/${passkeyId}`)).body.error).toEqual(REAUTH);
    expect((await recovered.get('/api/admin/integrations')).body.error.name).toBe('SecondFactorRequired');
    const { answer } = await stepUp(recovered, replacement);
    expect((await browser(sessionCookieOf(answer)).delete(`/api/auth/passkeys/${passkeyId}`)).status).toBe(200);

    // Unused, it lasts ADMIN_REAUTH_MINUTES, not the session's life.
    const second = await issueRecoveryCode(t.database.db, t.ctx.secret, 'lost@example.com', t.clock.now());
    const again = browser(
      sessionCookieOf(
        await request(t.app).post('/api/auth/verify-code').set('Sec-Fetch-Site', 'same-origin').send({ email: 'lost@example.com', code: second.code }),
      ),
    );
    t.clock.advance(11 * MINUTE);
    expect((await again.get('/api/admin/integrations')).body.error.name).toBe('SecondFactorRequired');
  });
});
