import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { createElement } from 'react';
import { createTestContext, type TestContext } from '../../test/context.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { createTestJobRunner } from '../../test/jobs.js';
import { mailOutbox } from '../db/schema/index.js';
import { backoffMs, deliverDueMail, NOT_SENT_NO_SMTP } from './delivery.js';
import { createMailer } from './mailer.js';
import { createMailService } from './mail.service.js';
import { enqueueMail, NOT_SENT_EXPIRED, NOT_SENT_UNREADABLE, purgeSealedContent } from './outbox.repo.js';
import { deriveOutboxKey, openContent, sealContent } from './sealed-content.js';
import { renderMail } from './render.js';
import { Layout, Paragraph } from './templates/Layout.js';

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

const mail = (to: string, extra: Partial<Parameters<typeof enqueueMail>[1]> = {}) => ({
  kind: 'test',
  to,
  subject: `Hello ${to}`,
  html: `<p>Hello ${to}</p>`,
  text: `Hello ${to}`,
  ...extra,
});
const rows = async () => (await t.database.pool.query('select * from mail_outbox order by id')).rows;

describe('enqueueMail', () => {
  it('is idempotent by dedupe key', async () => {
    expect(await enqueueMail(t.ctx.db, mail('a@example.com', { dedupeKey: 'k1' }))).toEqual(expect.any(Number));
    expect(await enqueueMail(t.ctx.db, mail('a@example.com', { dedupeKey: 'k1', subject: 'other' }))).toBeNull();
    expect((await rows()).map((r) => r.subject)).toEqual(['Hello a@example.com']);
  });

  it('writes nothing when the surrounding transaction rolls back', async () => {
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await enqueueMail(tx, mail('b@example.com'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await rows()).toEqual([]);
  });
});

describe('delivery over SMTP', () => {
  it('sends due mail once, with extra headers such as List-Unsubscribe', async () => {
    await t.ctx.services.mail.enqueue(
      t.ctx.db,
      mail('c@example.com', {
        headers: { 'List-Unsubscribe': '<https://radar.example/u?t=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      }),
    );
    expect(await t.ctx.services.mail.deliverNow()).toEqual({ sent: 1, retrying: 0, failed: 0, logged: 0 });
    const got = await sink.waitFor('c@example.com');
    expect(got.subject).toBe('Hello c@example.com');
    const raw = (key: string) => got.parsed.headerLines.find((h) => h.key === key)?.line;
    expect(raw('list-unsubscribe')).toBe('List-Unsubscribe: <https://radar.example/u?t=abc>');
    expect(raw('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(await t.ctx.services.mail.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0, logged: 0 });
    expect(sink.messages).toHaveLength(1);
    const [row] = await rows();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
  });

  it('retries with exponential backoff and sends once the server accepts', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, mail('d@example.com'));
    sink.rejectNext(2);
    expect((await t.ctx.services.mail.deliverNow()).retrying).toBe(1);
    let [row] = await rows();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.last_error).toMatch(/451/);
    expect(row.next_attempt_at.getTime()).toBe(t.clock.now().getTime() + 60_000);
    // Not due yet: nothing happens.
    expect((await t.ctx.services.mail.deliverNow()).retrying).toBe(0);
    t.clock.advance(60_000);
    expect((await t.ctx.services.mail.deliverNow()).retrying).toBe(1);
    [row] = await rows();
    expect(row.next_attempt_at.getTime()).toBe(t.clock.now().getTime() + 120_000);
    t.clock.advance(120_000);
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(1);
    expect((await sink.waitFor('d@example.com')).subject).toBe('Hello d@example.com');
    [row] = await rows();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(3);
  });

  it('marks a mail failed after the last attempt', async () => {
    await enqueueMail(t.ctx.db, mail('e@example.com'));
    sink.rejectNext(10);
    const deps = { db: t.ctx.db, clock: t.clock, log: t.ctx.log, mailer: t.ctx.services.mail.mailer, maxAttempts: 2, outboxKey: deriveOutboxKey(t.ctx.secret) };
    expect((await deliverDueMail(deps)).retrying).toBe(1);
    t.clock.advance(60_000);
    expect((await deliverDueMail(deps)).failed).toBe(1);
    const [row] = await rows();
    expect(row.status).toBe('failed');
    t.clock.advance(24 * 3600_000);
    expect(await deliverDueMail(deps)).toEqual({ sent: 0, retrying: 0, failed: 0, logged: 0 });
    sink.rejectNext(0);
  });

  it('reclaims a mail left in sending by a crashed process once its lease ends', async () => {
    const id = await enqueueMail(t.ctx.db, mail('f@example.com'));
    // What a claim that never finished leaves behind.
    await t.database.pool.query(`update mail_outbox set status = 'sending', attempts = 1, next_attempt_at = $1 where id = $2`, [
      new Date(t.clock.now().getTime() + 10 * 60_000),
      id,
    ]);
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(0);
    t.clock.advance(10 * 60_000);
    expect((await t.ctx.services.mail.deliverNow()).sent).toBe(1);
    expect((await sink.waitFor('f@example.com')).to).toEqual(['f@example.com']);
  });

  it('delivers mail written before a restart exactly once', async () => {
    await enqueueMail(t.ctx.db, mail('g@example.com'));
    const restarted = createMailService(t.ctx, { mailer: createMailer({ SMTP_URL: sink.url, MAIL_FROM: 'x@example.com' }, t.ctx.log) });
    const other = createMailService(t.ctx, { mailer: createMailer({ SMTP_URL: sink.url, MAIL_FROM: 'x@example.com' }, t.ctx.log) });
    const [a, b] = await Promise.all([restarted.deliverNow(), other.deliverNow()]);
    expect(a.sent + b.sent).toBe(1);
    await sink.waitFor('g@example.com');
    expect(sink.messages).toHaveLength(1);
    restarted.close();
    other.close();
  });

  it('backs off 1 min × 2^(attempt-1), at most 6 hours', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(backoffMs(3, 500)).toBe(2000);
    expect(backoffMs(20)).toBe(6 * 3600_000);
  });
});

describe('without SMTP_URL', () => {
  it('keeps the mail, logs its text at info level, and does not retry', async () => {
    const lines: Array<{ level: number; msg: string; mailText?: string }> = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    await enqueueMail(t.ctx.db, mail('h@example.com', { text: 'Your code is 424242' }));
    const service = createMailService({ ...t.ctx, log }, { mailer: null });
    expect(await service.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0, logged: 1 });
    const logged = lines.find((l) => l.mailText);
    expect(logged?.level).toBe(30);
    expect(logged?.mailText).toBe('Your code is 424242');
    expect(logged?.msg).toContain('Your code is 424242');
    const [row] = await rows();
    expect(row.status).toBe('failed');
    expect(row.last_error).toBe(NOT_SENT_NO_SMTP);
    t.clock.advance(7 * 24 * 3600_000);
    expect((await service.deliverNow()).logged).toBe(0);
    expect(sink.messages).toHaveLength(0);
  });
});

describe('deliver-mail job', () => {
  it('runs on Agenda and sends a kicked mail', async () => {
    const runner = createTestJobRunner(t);
    try {
      await runner.start();
      await t.ctx.services.mail.enqueue(t.ctx.db, mail('job@example.com'));
      t.ctx.services.mail.kick();
      expect((await sink.waitFor('job@example.com', 15_000)).subject).toBe('Hello job@example.com');
      // The mail reaches the server before the job records it: wait for the job run to complete.
      const status = async () => (await t.ctx.db.select().from(mailOutbox))[0]?.status;
      while ((await status()) !== 'sent') await new Promise((resolve) => runner.agenda.once('complete:deliver-mail', resolve));
    } finally {
      t.ctx.services.mail.setKicker(null);
      await runner.stop();
    }
  });
});

describe('Layout', () => {
  it('renders explicit colours, the color-scheme meta and an optional unsubscribe footer', async () => {
    const withFooter = await renderMail(
      createElement(Layout, {
        preview: 'p',
        heading: 'Weekly digest',
        unsubscribe: createElement('a', { href: 'https://x/u' }, 'Unsubscribe'),
        children: createElement(Paragraph, null, 'Body text'),
      }),
    );
    expect(withFooter.html).toContain('<meta name="color-scheme" content="light dark"');
    expect(withFooter.html).toContain('background-color:#ffffff');
    expect(withFooter.html).toContain('Unsubscribe');
    expect(withFooter.text).toContain('Weekly digest');
    expect(withFooter.text).toContain('Body text');
    const without = await renderMail(createElement(Layout, { preview: 'p', heading: 'H', children: 'x' }));
    expect(without.html).not.toContain('Unsubscribe');
  });
});

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

  it('logs the decrypted text without SMTP (local sign-in) and deletes the content when the code expires', async () => {
    await t.ctx.services.mail.enqueue(t.ctx.db, codeMail('local@example.com'));
    const local = createMailService(t.ctx, { mailer: null });
    expect(await local.deliverNow()).toMatchObject({ logged: 1 });
    expect(await purgeSealedContent(t.ctx.db, t.clock.now())).toBe(0);
    expect((await rows())[0].sealed_content).not.toBeNull();
    t.clock.advance(10 * MINUTE);
    expect(await purgeSealedContent(t.ctx.db, t.clock.now())).toBe(1);
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
