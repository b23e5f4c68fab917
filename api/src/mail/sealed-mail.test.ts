import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../test/context.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { createMailService } from './mail.service.js';
import { enqueueMail, NOT_SENT_EXPIRED, NOT_SENT_UNREADABLE, purgeSealedContent } from './outbox.js';
import { deriveOutboxKey, openContent, sealContent } from './sealed-content.js';

let t: TestContext;
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestContext({ SMTP_URL: sink.url });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
});
beforeEach(async () => {
  await t.database.pool.query('delete from mail_outbox');
  sink.clear();
});

const rows = async () => (await t.database.pool.query('select * from mail_outbox order by id')).rows;
const MINUTE = 60_000;
const codeMail = (to: string, expiresInMs = 10 * MINUTE) => ({
  kind: 'sign-in-code',
  to,
  subject: '482913 is your sign-in code',
  html: '<p>Your code: <b>482913</b></p>',
  text: 'Your code: 482913',
  sensitive: { expiresAt: new Date(t.clock.now().getTime() + expiresInMs) },
});

describe('sealed (sensitive) outbox mail', () => {
  it('keeps the secret out of every stored column and sends it decrypted', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('sealed@example.com'));
    const [stored] = await rows();
    expect(JSON.stringify(stored)).not.toContain('482913');
    expect(stored.subject).toBe('(encrypted until sent)');
    expect(stored.sealed_content).toMatch(/^v1\./);
    expect(await t.ctx.services.mail.deliverNow()).toMatchObject({ sent: 1 });
    const got = await sink.waitFor('sealed@example.com');
    expect(got.subject).toBe('482913 is your sign-in code');
    expect(got.parsed.text).toContain('Your code: 482913');
    const [sent] = await rows();
    expect(sent.status).toBe('sent');
    expect(sent.sealed_content).toBeNull();
  });

  it('never sends a sealed mail after its secret expired, and deletes its content', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('late@example.com'));
    t.clock.advance(10 * MINUTE);
    expect(await t.ctx.services.mail.deliverNow()).toMatchObject({ sent: 0, failed: 1 });
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'failed', last_error: NOT_SENT_EXPIRED, sealed_content: null });
    expect(sink.messages).toHaveLength(0);
  });

  it('marks a mail sealed with another secret failed instead of sending garbage', async () => {
    await enqueueMail(t.ctx.db, codeMail('rotated@example.com'), { key: deriveOutboxKey('another-secret-another-secret-another') });
    expect(await t.ctx.services.mail.deliverNow()).toMatchObject({ failed: 1 });
    expect((await rows())[0]).toMatchObject({ status: 'failed', last_error: NOT_SENT_UNREADABLE, sealed_content: null });
  });

  it('logs the decrypted text without SMTP (local sign-in) and deletes the content', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('local@example.com'));
    const local = createMailService(t.ctx, { mailer: null });
    expect(await local.deliverNow()).toMatchObject({ logged: 1 });
    expect((await rows())[0].sealed_content).toBeNull();
  });

  it('refuses to store a sensitive mail in clear', async () => {
    await expect(enqueueMail(t.ctx.db, codeMail('clear@example.com'))).rejects.toThrow(/needs the outbox key/);
    expect(await rows()).toEqual([]);
  });

  it('purges sealed content of sent, failed and expired mail; an expired pending mail becomes failed', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('a@example.com'));
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('b@example.com', 60 * MINUTE));
    const [a] = await rows();
    // A crash between the sent mark and the content deletion leaves this behind.
    await t.database.pool.query(`update mail_outbox set status = 'sent' where id = $1`, [a.id]);
    expect(await purgeSealedContent(t.ctx.db, t.clock.now())).toBe(1);
    t.clock.advance(60 * MINUTE);
    expect(await purgeSealedContent(t.ctx.db, t.clock.now())).toBe(1);
    const after = await rows();
    expect(after.map((r) => [r.status, r.sealed_content])).toEqual([
      ['sent', null],
      ['failed', null],
    ]);
    expect(after[1].last_error).toBe(NOT_SENT_EXPIRED);
  });

  it('detects tampering (AES-GCM)', () => {
    const key = deriveOutboxKey(t.ctx.secret);
    const sealed = sealContent(key, { subject: 's', html: 'h', text: 't' });
    expect(openContent(key, sealed)).toEqual({ subject: 's', html: 'h', text: 't' });
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] ^= 1;
    expect(() => openContent(key, [...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toThrow();
  });
});
