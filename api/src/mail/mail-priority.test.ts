import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { createTestContext, type TestContext } from '../../test/context.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { deliverDueMail, type UnrecordedSends } from './delivery.js';
import { createMailService } from './mail.service.js';
import { createMailer } from './mailer.js';
import { enqueueMail } from './outbox.repo.js';
import { deriveOutboxKey } from './sealed-content.js';

let t: TestContext;
let sink: SmtpSink;
beforeAll(async () => {
  // 10 ms per message, like a fast relay: 100 digests keep a delivery run busy for a few seconds.
  sink = await startSmtpSink({ delayMs: 10 });
  // A short statement timeout, so a blocked "mark sent" fails quickly in the retry tests.
  t = await createTestContext({ SMTP_URL: sink.url }, { pool: { max: 8, statementTimeoutMs: 300 } });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
});
beforeEach(async () => {
  await t.database.pool.query('delete from mail_outbox');
  sink.clear();
  sink.beforeAccept = null;
});

const outboxKey = deriveOutboxKey('mail-priority-test-secret-0123456789-abcdef');
const mail = (kind: string, to: string) => ({ kind, to, subject: `${kind} for ${to}`, html: `<p>${to}</p>`, text: to });

async function queueDigests(n: number) {
  await t.database.pool.query(
    `INSERT INTO mail_outbox (kind, to_address, subject, html, text, priority)
     SELECT 'weekly-digest', 'reader' || g || '@example.com', 'Your weekly digest', '<p>digest</p>', 'digest', 9 FROM generate_series(1, $1) AS g`,
    [n],
  );
}

describe('mail at volume', () => {
  it('sends a batch over a few pooled connections at once and records it in one go', async () => {
    await queueDigests(60);
    const pooled = createMailer({ SMTP_URL: sink.url, MAIL_FROM: 'x@example.com', SMTP_POOL_SIZE: 3 }, t.ctx.log)!;
    const result = await deliverDueMail({ db: t.ctx.db, clock: t.clock, log: t.ctx.log, mailer: pooled, outboxKey });
    pooled.close();
    expect(result).toEqual({ sent: 60, retrying: 0, failed: 0, logged: 0 });
    expect(new Set(sink.messages.map((m) => m.to[0])).size).toBe(60);
    // Three connections carried the sixty mails, used at the same time (one per mail would open sixty).
    expect(sink.connections.opened).toBe(3);
    expect(sink.connections.maxOpen).toBe(3);
    const { rows } = await t.database.pool.query(
      `select status, count(*)::int as n, count(provider_message_id)::int as ids, count(sent_at)::int as at from mail_outbox group by status`,
    );
    expect(rows).toEqual([{ status: 'sent', n: 60, ids: 60, at: 60 }]);
  });
});

describe('mail priority', () => {
  it('gives each kind its priority and claims the most urgent first', async () => {
    await queueDigests(30);
    await enqueueMail(t.ctx.db, mail('item-change', 'follower@example.com'));
    await enqueueMail(t.ctx.db, mail('sign-in-code', 'code@example.com'));
    const { rows } = await t.database.pool.query(`select kind, priority from mail_outbox where kind <> 'weekly-digest' order by id`);
    expect(rows).toEqual([
      { kind: 'item-change', priority: 5 },
      { kind: 'sign-in-code', priority: 0 },
    ]);
    // One connection: the mails reach the server in the order they are sent, which is the claim order.
    const oneAtATime = createMailer({ SMTP_URL: sink.url, MAIL_FROM: 'x@example.com', SMTP_POOL_SIZE: 1 }, t.ctx.log)!;
    await deliverDueMail({ db: t.ctx.db, clock: t.clock, log: t.ctx.log, mailer: oneAtATime, outboxKey, batchSize: 5 });
    oneAtATime.close();
    expect(sink.messages.map((m) => m.to[0])).toEqual([
      'code@example.com',
      'follower@example.com',
      'reader1@example.com',
      'reader2@example.com',
      'reader3@example.com',
    ]);
  });

  it('sends a sign-in code on its own lane while a bulk delivery run is busy with 100 digests', async () => {
    await queueDigests(100);
    const bulk = t.ctx.services.mail.deliverNow();
    await sink.waitFor('reader5@example.com');
    await t.ctx.db.transaction((tx) => t.ctx.services.mail.enqueue(tx, mail('sign-in-code', 'waiting@example.com')));
    t.ctx.services.mail.kick();
    // The bound: the code leaves within 10 s. It must not wait for the bulk run to finish either.
    const code = await sink.waitFor('waiting@example.com', 10_000);
    const digestsBefore = sink.messages.indexOf(code);
    expect(digestsBefore).toBeLessThan(90);
    const done = await bulk;
    expect(done.sent).toBe(100);
    expect(sink.messages.filter((m) => m.to[0] === 'waiting@example.com')).toHaveLength(1);
    const { rows } = await t.database.pool.query(`select count(*)::int as n from mail_outbox where status = 'sent'`);
    expect(rows[0].n).toBe(101);
  });
});

describe('a mail the SMTP server accepted is recorded, never sent again', () => {
  /** Locks the outbox row from another connection the moment the server has the mail, until `release()`. */
  function lockRowOnAccept() {
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    const locked = new Promise<void>((resolve) => {
      sink.beforeAccept = async () => {
        const client = await t.database.pool.connect();
        await client.query('BEGIN');
        await client.query(`SELECT id FROM mail_outbox FOR UPDATE`);
        resolve();
        void released.then(async () => {
          await client.query('COMMIT');
          client.release();
        });
      };
    });
    return { locked, release };
  }

  it('retries the record while the row is locked, and sends once', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, new Writable({ write: (c, _e, done) => (warnings.push(String(c)), done()) }));
    const service = createMailService({ ...t.ctx, log }, { mailer: t.ctx.services.mail.mailer });
    await enqueueMail(t.ctx.db, mail('sign-in-code', 'once@example.com'));
    const lock = lockRowOnAccept();
    const run = service.deliverNow();
    await lock.locked;
    // Two record attempts fail on the statement timeout (300 ms each), then the lock goes.
    setTimeout(lock.release, 800);
    expect(await run).toEqual({ sent: 1, retrying: 0, failed: 0, logged: 0 });
    expect(sink.messages).toHaveLength(1);
    const { rows } = await t.database.pool.query('select status, attempts from mail_outbox');
    expect(rows).toEqual([{ status: 'sent', attempts: 1 }]);
    expect(warnings.some((w) => w.includes('recording it failed; retrying the record'))).toBe(true);
  });

  it('keeps an unrecordable send in memory, records it first on the next run and does not resend it', async () => {
    await enqueueMail(t.ctx.db, mail('sign-in-code', 'later@example.com'));
    const unrecorded: UnrecordedSends = new Map();
    const deps = { db: t.ctx.db, clock: t.clock, log: t.ctx.log, mailer: t.ctx.services.mail.mailer, outboxKey, unrecorded, sleep: async () => undefined };
    const lock = lockRowOnAccept();
    const first = await deliverDueMail(deps);
    await lock.locked;
    expect(first.sent).toBe(1);
    expect(unrecorded.size).toBe(1);
    lock.release();
    await new Promise((r) => setTimeout(r, 100));
    // Even once the lease has ended, this process records the send instead of claiming the mail again.
    t.clock.advance(60 * 60_000);
    expect(await deliverDueMail(deps)).toEqual({ sent: 0, retrying: 0, failed: 0, logged: 0 });
    expect(unrecorded.size).toBe(0);
    expect(sink.messages).toHaveLength(1);
    expect((await t.database.pool.query('select status from mail_outbox')).rows).toEqual([{ status: 'sent' }]);
  });

  it('gives every mail a stable Message-ID from its outbox row', async () => {
    const id = await enqueueMail(t.ctx.db, mail('sign-in-code', 'msgid@example.com'));
    await t.ctx.services.mail.deliverNow();
    const got = await sink.waitFor('msgid@example.com');
    expect(got.parsed.messageId).toMatch(new RegExp(`^<radar-${id}-\\d+@m365radar\\.local>$`));
  });
});
