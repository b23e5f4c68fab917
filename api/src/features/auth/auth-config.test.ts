import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { latestMailTo, signIn } from '../../../test/auth-helpers.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';

describe('sign-in mail through a real SMTP server', () => {
  let t: TestContext;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestContext({ SMTP_URL: sink.url, MAIL_FROM: 'M365 Radar <radar@test.example>' });
  });
  afterAll(async () => {
    t.ctx.services.mail.close();
    await t.close();
    await sink.close();
  });

  it('delivers the code (HTML and text parts) and signs in with the code read from the mail', async () => {
    const signup = await request(t.app).post('/api/auth/signup').send({ firstName: 'Mail', lastName: 'Reader', email: 'Reader@Example.com' });
    expect(signup.status).toBe(200);
    // No deliverNow(): the code goes out on the api's interactive lane as soon as it is queued.
    const mail = await sink.waitFor('reader@example.com');
    await t.ctx.services.mail.deliverInteractive();
    expect(await t.ctx.services.mail.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0, logged: 0 });
    expect(mail.from).toBe('radar@test.example');
    const code = mail.text.match(/\b(\d{6})\b/)?.[1];
    expect(code).toBeDefined();
    expect(mail.subject).toBe(`${code} is your M365 Radar sign-in code`);
    expect(mail.text).toContain('valid for 10 minutes');
    expect(mail.text).toContain('If you did not ask for this code');
    expect(mail.html).toContain(code!);
    expect(mail.html).toContain('M365 Radar');
    expect(mail.html).toContain('name="color-scheme"');
    expect(mail.parsed.html).toBeTruthy();

    const [row] = (await t.database.pool.query(`select status, provider_message_id, sent_at from mail_outbox`)).rows;
    expect(row.status).toBe('sent');
    expect(row.provider_message_id).toBe(mail.parsed.messageId);
    expect(row.sent_at.toISOString()).toBe(t.clock.now().toISOString());

    const verify = await request(t.app).post('/api/auth/verify-code').send({ email: 'reader@example.com', code });
    expect(verify.status).toBe(200);
    expect(verify.body.success).toBe(true);
  });
});

describe('configuration-dependent behaviour', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ PUBLIC_URL: 'https://radar.example.com', ADMIN_EMAILS: 'Boss@Example.com, other@example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('names the session cookie __Host-… and marks it Secure when PUBLIC_URL is https', async () => {
    await request(t.app).post('/api/auth/signup').send({ firstName: 'S', lastName: 'C', email: 'secure@example.com' });
    const mail = (await latestMailTo(t, 'secure@example.com', 'sign-in-code'))!;
    const code = mail.text.match(/\b(\d{6})\b/)![1];
    const res = await request(t.app).post('/api/auth/verify-code').send({ email: 'secure@example.com', code });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-radar_session=[^;]+; Max-Age=\d+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(mail.text).toContain('https://radar.example.com');
    // The prefixed name is the only one read: a plain radar_session cookie (e.g. set by a subdomain) is ignored.
    const token = cookie.split(';')[0]!.split('=')[1];
    expect((await request(t.app).get('/api/auth/user').set('Cookie', `radar_session=${token}`).set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
    expect((await request(t.app).get('/api/auth/user').set('Cookie', `__Host-radar_session=${token}`).set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it('grants Admin on sign-in to addresses in ADMIN_EMAILS (case-insensitive), and User to everyone new', async () => {
    const boss = await signIn(t, 'boss@example.com');
    const me = await request(t.app).get('/api/auth/user').set('Cookie', boss).set('Sec-Fetch-Site', 'same-origin');
    expect(me.body.roles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'User']);
    const roles = await request(t.app).get('/api/auth/user-roles').set('Cookie', boss).set('Sec-Fetch-Site', 'same-origin');
    expect(roles.body.map((r: { role: { name: string } }) => r.role.name)).toEqual(['Admin', 'User']);
    const plain = await signIn(t, 'plain@example.com');
    expect(
      (await request(t.app).get('/api/auth/user').set('Cookie', plain).set('Sec-Fetch-Site', 'same-origin')).body.roles.map((r: { name: string }) => r.name),
    ).toEqual(['User']);
  });

  it('accepts a same-origin POST for the https origin and refuses others', async () => {
    const ok = await request(t.app).post('/api/auth/send-code').set('Origin', 'https://radar.example.com').send({ email: 'x@example.com' });
    expect(ok.status).toBe(200);
    const bad = await request(t.app).post('/api/auth/send-code').set('Origin', 'http://radar.example.com').send({ email: 'x@example.com' });
    expect(bad.status).toBe(403);
  });
});
