import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { TestContext } from '../context.js';
import { latestCodeFromOutbox, sessionCookieOf } from '../auth-helpers.js';
import { digestConfirmPath } from '../digest-helpers.js';
import { startSmtpSink, type SmtpSink } from '../smtp-sink.js';
import { databaseText, securityContext } from './harness.js';

/**
 * ASVS V2.7.4 / V2.10 / V3.2.3 / V8.3.4 (secrets at rest): reading every row of every table gives no live sign-in code,
 * no confirmation link and no session token, before the mail is sent and after; the outbox keeps sensitive mail
 * encrypted and deletes it once delivered.
 */
let t: TestContext;
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await securityContext({ SMTP_URL: sink.url });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
});

describe('the database holds no live secret', () => {
  let code = '';
  it('no sign-in code, before or after delivery', async () => {
    await request(t.app).post('/api/auth/signup').send({ email: 'atrest@example.com', firstName: 'At', lastName: 'Rest' });
    code = await latestCodeFromOutbox(t, 'atrest@example.com');
    const queued = await databaseText(t);
    expect(queued).toContain('atrest@example.com');
    expect(queued).not.toMatch(new RegExp(`(?<![0-9a-f])${code}(?![0-9a-f])`));
    await t.ctx.services.mail.deliverNow();
    const mail = await sink.waitFor('atrest@example.com');
    expect(mail.text).toContain(code);
    const delivered = await databaseText(t);
    expect(delivered).not.toMatch(new RegExp(`(?<![0-9a-f])${code}(?![0-9a-f])`));
    const { rows } = await t.database.pool.query(`SELECT status, subject, sealed_content FROM mail_outbox WHERE to_address = 'atrest@example.com'`);
    expect(rows).toEqual([{ status: 'sent', subject: '(encrypted until sent)', sealed_content: null }]);
  });

  it('no session token (only its SHA-256)', async () => {
    const res = await request(t.app).post('/api/auth/verify-code').send({ email: 'atrest@example.com', code });
    expect(res.status).toBe(200);
    const token = sessionCookieOf(res).split('=')[1]!;
    expect(await databaseText(t)).not.toContain(token);
  });

  it('no digest confirmation link', async () => {
    await request(t.app).post('/api/weekly-digest/signup').send({ email: 'confirm-at-rest@example.com', firstName: 'C', lastName: 'R' });
    const link = await digestConfirmPath(t, 'confirm-at-rest@example.com');
    const token = decodeURIComponent(link.split('token=')[1]!);
    const nonce = Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8').split(':')[2]!;
    const text = await databaseText(t);
    expect(text).not.toContain(token.split('.')[1]);
    expect(text).not.toContain(nonce);
  });
});
