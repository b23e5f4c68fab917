import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { latestCodeFromOutbox, latestMailTo, sessionCookieOf, signIn } from '../../../test/auth-helpers.js';
import { AUTH_MESSAGES } from './auth.service.js';

let t: TestContext;
beforeAll(async () => {
  // TRUST_PROXY lets tests pose as different client addresses with X-Forwarded-For.
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
/** A fresh client address per call, so per-address limits do not interfere across tests. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const post = (path: string, body: unknown, ip = freshIp()) =>
  request(t.app)
    .post(path)
    .set('X-Forwarded-For', ip)
    .send(body as object);
const issueMessages = (res: request.Response) => (res.body.error.issues as { path: string; message: string }[]).map((i) => `${i.path}: ${i.message}`);
const query = async (text: string, values: unknown[] = []) => (await t.database.pool.query(text, values)).rows;

describe('POST /api/auth/signup', () => {
  it('mails a code and creates the account only when the code is verified; answers { success, message }', async () => {
    const res = await post('/api/auth/signup', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.codeSent });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await query('select id from users where email = $1', ['ada@example.com'])).toEqual([]);
    expect(await query('select first_name, last_name from pending_signups where email = $1', ['ada@example.com'])).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace' },
    ]);
    const mail = (await latestMailTo(t, 'ada@example.com', 'sign-in-code'))!;
    expect(mail.subject).toMatch(/^\d{6} is your M365 Radar sign-in code$/);
    expect(mail.text).toContain('valid for 10 minutes');
    // The visitor's name is not in the mail: the address is not confirmed yet.
    expect(mail.text + mail.html).not.toMatch(/Ada|Lovelace/);
    const code = await latestCodeFromOutbox(t, 'ada@example.com');
    expect((await post('/api/auth/verify-code', { email: 'ada@example.com', code })).status).toBe(200);
    expect(await query('select first_name, last_name from users where email = $1', ['ada@example.com'])).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace' },
    ]);
    expect(await query('select email from pending_signups where email = $1', ['ada@example.com'])).toEqual([]);
  });

  it('a pending sign-up expires with its code: no account, and Resend (send-code) keeps it alive', async () => {
    await post('/api/auth/signup', { firstName: 'Pen', lastName: 'Ding', email: 'pending@example.com' });
    t.clock.advance(9 * 60_000);
    // Resend from the code step asks send-code: the pending sign-up gets a code, not a "no account" mail.
    expect((await post('/api/auth/send-code', { email: 'pending@example.com' })).status).toBe(200);
    t.clock.advance(9 * 60_000);
    const code = await latestCodeFromOutbox(t, 'pending@example.com');
    expect((await post('/api/auth/verify-code', { email: 'pending@example.com', code })).status).toBe(200);
    await post('/api/auth/signup', { firstName: 'Ex', lastName: 'Pired', email: 'expired@example.com' });
    t.clock.advance(10 * 60_000);
    expect((await t.ctx.services.auth.cleanup()).pendingSignups).toBe(1);
    expect((await post('/api/auth/send-code', { email: 'expired@example.com' })).status).toBe(200);
    expect(await latestMailTo(t, 'expired@example.com', 'sign-in-no-account')).toBeDefined();
    expect(await query(`select id from users where email = 'expired@example.com'`)).toEqual([]);
  });

  it('answers 400 with the field messages for missing or bad fields', async () => {
    const empty = await post('/api/auth/signup', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.name).toBe('InputError');
    expect(issueMessages(empty)).toEqual(['firstName: First name is required', 'lastName: Last name is required', 'email: Please enter a valid email address']);
    const blank = await post('/api/auth/signup', { firstName: '  ', lastName: 'X', email: 'not-an-email' });
    expect(issueMessages(blank)).toEqual(['firstName: First name is required', 'email: Please enter a valid email address']);
    expect(blank.body.error.message).toBe('firstName: First name is required');
    const noBody = await request(t.app).post('/api/auth/signup');
    expect(noBody.status).toBe(400);
  });

  it('does not reveal an existing account: same answer, a fresh code, names kept', async () => {
    const first = await post('/api/auth/signup', { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    await post('/api/auth/verify-code', { email: 'grace@example.com', code: await latestCodeFromOutbox(t, 'grace@example.com') });
    const again = await post('/api/auth/signup', { firstName: 'Someone', lastName: 'Else', email: ' GRACE@example.com ' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const code = await latestCodeFromOutbox(t, 'grace@example.com');
    expect((await post('/api/auth/verify-code', { email: 'grace@example.com', code })).status).toBe(200);
    expect(await query(`select first_name, last_name from users where email = 'grace@example.com'`)).toEqual([{ first_name: 'Grace', last_name: 'Hopper' }]);
  });

  it('fills in names an existing account does not have yet, once its code is verified', async () => {
    await query(`insert into users (email) values ('nameless@example.com')`);
    await post('/api/auth/signup', { firstName: 'Now', lastName: 'Named', email: 'nameless@example.com' });
    expect(await query(`select first_name from users where email = 'nameless@example.com'`)).toEqual([{ first_name: null }]);
    await post('/api/auth/verify-code', { email: 'nameless@example.com', code: await latestCodeFromOutbox(t, 'nameless@example.com') });
    expect(await query(`select first_name, last_name from users where email = 'nameless@example.com'`)).toEqual([{ first_name: 'Now', last_name: 'Named' }]);
  });

  it('answers malformed JSON with 400', async () => {
    const res = await request(t.app).post('/api/auth/signup').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { name: 'InputError', message: 'Request body is not valid JSON' } });
  });

  it('refuses a cross-origin POST and sends nothing', async () => {
    const res = await post('/api/auth/signup', { firstName: 'E', lastName: 'Vil', email: 'victim@example.com' }).set('Origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ name: 'NotAllowedError', message: 'Cross-origin request refused' });
    expect(await query(`select id from mail_outbox where to_address = 'victim@example.com'`)).toEqual([]);
    const same = await post('/api/auth/send-code', { email: 'victim@example.com' }).set('Origin', 'http://localhost:8080');
    expect(same.status).toBe(200);
  });
});

describe('POST /api/auth/send-code', () => {
  it('mails a code to a known address, e-mail trimmed and lower-cased', async () => {
    await post('/api/auth/signup', { firstName: 'Known', lastName: 'User', email: 'known@example.com' });
    const before = await latestCodeFromOutbox(t, 'known@example.com');
    const res = await post('/api/auth/send-code', { email: '  Known@Example.COM ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.codeSent });
    const rows = await query(`select kind from mail_outbox where to_address = 'known@example.com'`);
    expect(rows.map((r) => r.kind)).toEqual(['sign-in-code', 'sign-in-code']);
    // A new code supersedes the older one.
    const latest = await latestCodeFromOutbox(t, 'known@example.com');
    if (latest !== before) {
      const old = await post('/api/auth/verify-code', { email: 'known@example.com', code: before });
      expect(old.status).toBe(401);
    }
    expect((await post('/api/auth/verify-code', { email: 'known@example.com', code: latest })).status).toBe(200);
  });

  it('answers an unknown address exactly like a known one, mails a sign-up hint and no code', async () => {
    const res = await post('/api/auth/send-code', { email: 'stranger@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.codeSent });
    const mails = await query(`select kind, text from mail_outbox where to_address = 'stranger@example.com'`);
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe('sign-in-no-account');
    expect(mails[0].text).not.toMatch(/\b\d{6}\b/);
    expect(mails[0].text).toContain('Sign Up');
    expect(await query(`select id from users where email = 'stranger@example.com'`)).toEqual([]);
    const verify = await post('/api/auth/verify-code', { email: 'stranger@example.com', code: '123456' });
    expect(verify.status).toBe(401);
  });

  it('answers 400 for a bad or missing e-mail', async () => {
    for (const body of [{}, { email: '' }, { email: '   ' }, { email: 'nope' }, { email: 42 }]) {
      const res = await post('/api/auth/send-code', body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([{ path: 'email', message: 'Please enter a valid email address' }]);
    }
  });
});

describe('POST /api/auth/verify-code', () => {
  it('signs in: session cookie with the right flags, user verified, User role granted', async () => {
    await post('/api/auth/signup', { firstName: 'Linus', lastName: 'T', email: 'linus@example.com' });
    const code = await latestCodeFromOutbox(t, 'linus@example.com');
    const res = await post('/api/auth/verify-code', { email: ' LINUS@example.com', code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.signedIn });
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('radar_session='))!;
    expect(cookie).toMatch(/^radar_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    expect(cookie).not.toContain('__Host-');
    expect(cookie).not.toContain('Secure');
    const [u] = await query(`select id, email_verified_at, last_login_at from users where email = 'linus@example.com'`);
    expect(u.email_verified_at.toISOString()).toBe(t.clock.now().toISOString());
    expect(u.last_login_at.toISOString()).toBe(t.clock.now().toISOString());
    // Only the hash of the token is stored.
    const token = sessionCookieOf(res).split('=')[1]!;
    const sessions = await query('select id_hash, expires_at from sessions where user_id = $1', [u.id]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].id_hash).not.toBe(token);
    expect(sessions[0].id_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].expires_at.getTime()).toBe(t.clock.now().getTime() + 30 * 24 * 3600_000);
    // The code is stored hashed, and is single-use.
    const codes = await query(`select code_hash from sign_in_codes where email = 'linus@example.com'`);
    expect(codes.every((c) => c.code_hash !== code && /^[0-9a-f]{64}$/.test(c.code_hash))).toBe(true);
    const again = await post('/api/auth/verify-code', { email: 'linus@example.com', code });
    expect(again.status).toBe(401);
    expect(again.body.error.message).toBe(AUTH_MESSAGES.noCode);
  });

  it('refuses a wrong code with 401 and still accepts the right one after it', async () => {
    await post('/api/auth/signup', { firstName: 'W', lastName: 'R', email: 'wrong@example.com' });
    const code = await latestCodeFromOutbox(t, 'wrong@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await post('/api/auth/verify-code', { email: 'wrong@example.com', code: wrong });
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual({ name: 'AuthenticationError', message: AUTH_MESSAGES.invalidCode });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await post('/api/auth/verify-code', { email: 'wrong@example.com', code })).status).toBe(200);
  });

  it('answers 400 with the field message for a malformed code, and for missing fields', async () => {
    for (const code of ['12345', '1234567', 'abcdef', '', undefined]) {
      const res = await post('/api/auth/verify-code', { email: 'x@example.com', code });
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([{ path: 'code', message: 'Verification code must be 6 digits' }]);
    }
    const none = await post('/api/auth/verify-code', {});
    expect(issueMessages(none)).toEqual(['email: Please enter a valid email address', 'code: Verification code must be 6 digits']);
  });

  it('answers 401 when no code was requested', async () => {
    const res = await post('/api/auth/verify-code', { email: 'never@example.com', code: '123456' });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(AUTH_MESSAGES.noCode);
  });
});

describe('current user', () => {
  it('answers guests: session-user { user: null }, user 401, user-roles [], moderator roles 401', async () => {
    expect((await request(t.app).get('/api/auth/session-user')).body).toEqual({ user: null });
    const user = await request(t.app).get('/api/auth/user');
    expect(user.status).toBe(401);
    expect(user.body.error.name).toBe('AuthenticationError');
    expect((await request(t.app).get('/api/auth/user-roles')).body).toEqual([]);
    expect((await request(t.app).get('/api/moderator/user/roles')).status).toBe(401);
    // A cookie that matches no session is a guest too.
    const bogus = await request(t.app).get('/api/auth/session-user').set('Cookie', 'radar_session=nope').set('Sec-Fetch-Site', 'same-origin');
    expect(bogus.body).toEqual({ user: null });
  });

  it('returns the signed-in user with roles from every lookup', async () => {
    const cookie = await signIn(t, 'me@example.com', { firstName: 'Me', lastName: 'Myself' });
    const session = await request(t.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(session.status).toBe(200);
    const userRole = (await query(`select id from roles where name = 'User'`))[0].id;
    expect(session.body.user).toEqual({
      id: expect.any(Number),
      email: 'me@example.com',
      firstName: 'Me',
      lastName: 'Myself',
      profileImageUrl: null,
      lastLoginAt: t.clock.now().toISOString(),
      roles: [{ id: userRole, name: 'User' }],
      impersonatedRole: null,
      secondFactor: null,
    });
    const user = await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(user.body).toEqual(session.body.user);
    const roles = await request(t.app).get('/api/auth/user-roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(roles.body).toEqual([{ id: expect.any(Number), roleId: userRole, role: { id: userRole, name: 'User' } }]);
    expect((await request(t.app).get('/api/moderator/user/roles').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body).toEqual(roles.body);
  });
});

describe('logout and navigations', () => {
  it('POST /api/auth/logout ends the session and clears the cookie', async () => {
    const cookie = await signIn(t, 'bye@example.com');
    const res = await request(t.app).post('/api/auth/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Signed out successfully' });
    expect(String(res.headers['set-cookie'])).toMatch(/radar_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await request(t.app).get('/api/auth/session-user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body).toEqual({ user: null });
    expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect(await query(`select s.id_hash from sessions s join users u on u.id = s.user_id where u.email = 'bye@example.com'`)).toEqual([]);
    // Signed out already: still a success (idempotent).
    expect((await request(t.app).post('/api/auth/logout')).status).toBe(200);
  });

  it('refuses a cross-origin logout', async () => {
    const cookie = await signIn(t, 'stay@example.com');
    const res = await request(t.app).post('/api/auth/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').set('Origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it('GET /api/logout answers a page that signs out by a POST; the GET itself changes nothing', async () => {
    const cookie = await signIn(t, 'nav@example.com');
    const page = await request(t.app).get('/api/logout').set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<form id="action-form" action="/api/logout" method="post">');
    expect(page.text).toContain('Sign out</button>');
    // Not a same-origin navigation: the page asks; it does not submit itself.
    expect(page.text).not.toContain('<script');
    expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
    // From our own pages (the mobile menu) the form submits at once, with this response's CSP nonce.
    const own = await request(t.app).get('/api/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    const nonce = /script-src[^;]*'nonce-([^']+)'/.exec(String(own.headers['content-security-policy']))![1];
    expect(own.text).toContain(`<script nonce="${nonce}">document.getElementById('action-form').submit();</script>`);
    // A fresh nonce per response; the page that asks first has none in its policy.
    const again = await request(t.app).get('/api/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
    expect(String(again.headers['content-security-policy'])).toMatch(/'nonce-/);
    expect(String(again.headers['content-security-policy'])).not.toContain(nonce);
    expect(String(page.headers['content-security-policy'])).not.toMatch(/'nonce-/);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
    // The form's POST signs out and goes home, where the shell says 'Signed out successfully'.
    const out = await request(t.app).post('/api/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').set('Origin', 'http://localhost:8080');
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/?signedOut=1');
    expect(String(out.headers['set-cookie'])).toMatch(/radar_session=;/);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    // Signed out already: the page says so.
    expect((await request(t.app).get('/api/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).text).toContain('You are signed out');
  });

  it('signs out everywhere: every session of the account ends, other accounts keep theirs', async () => {
    const laptop = await signIn(t, 'everywhere@example.com');
    const phone = await signIn(t, 'everywhere@example.com');
    const other = await signIn(t, 'bystander@example.com');
    expect((await request(t.app).post('/api/auth/logout-everywhere')).status).toBe(401);
    const res = await request(t.app).post('/api/auth/logout-everywhere').set('Cookie', phone).set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: AUTH_MESSAGES.signedOutEverywhere, revokedTokens: 0 });
    expect(String(res.headers['set-cookie'])).toMatch(/radar_session=;/);
    for (const cookie of [laptop, phone])
      expect((await request(t.app).get('/api/auth/user').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', other).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it('GET /api/login redirects to the sign-in dialog', async () => {
    const res = await request(t.app).get('/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/?signin=1');
  });
});

describe('cleanup', () => {
  it('deletes expired sessions, sign-in codes and failures older than a day', async () => {
    await signIn(t, 'old@example.com');
    t.clock.advance(31 * 24 * 3600_000);
    const removed = await t.ctx.services.auth.cleanup();
    expect(removed.sessions).toBeGreaterThanOrEqual(1);
    expect(removed.codes).toBeGreaterThanOrEqual(1);
    expect(await query(`select id from sign_in_codes where email = 'old@example.com'`)).toEqual([]);
    expect(await query('select id_hash from sessions where expires_at < $1', [t.clock.now()])).toEqual([]);
  });
});
