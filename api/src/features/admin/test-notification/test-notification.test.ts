import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../../test/factories.js';
import { itemHistory } from '../../../db/schema/index.js';
import { startSmtpSink, type SmtpSink } from '../../../../test/smtp-sink.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
const outbox = () => t.database.pool.query(`SELECT * FROM mail_outbox WHERE kind = 'test-notification' ORDER BY id`).then((r) => r.rows);

beforeAll(async () => {
  t = await createTestContext();
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'], email: 'admin@example.com', firstName: 'Ada' });
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/admin/test-notification', () => {
  it('mails the item-change mail for a roadmap item to the calling admin, with the given summary', async () => {
    await insertRoadmapItem(t.ctx.db, { externalId: '512345', title: 'Teams: Town hall recordings' });
    const res = await admin.agent
      .post('/api/admin/test-notification')
      .send({ itemId: '512345', itemType: 'roadmap', changesSummary: 'Release date moved to April CY2026' });
    expect(res.status).toBe(200);
    // No SMTP server in this context: the mail waits in the outbox, and the admin is told so.
    expect(res.body).toEqual({
      success: true,
      delivery: 'queued',
      message:
        'Test notification queued for admin@example.com: no SMTP server is configured (SMTP_URL), so it is written to the server log instead of being sent',
    });
    const [mail] = await outbox();
    // Interactive priority: the api sends it at once itself (here, without SMTP_URL, that means logging it).
    expect(mail).toMatchObject({ to_address: 'admin@example.com', subject: '[Test] Updated: Teams: Town hall recordings', priority: 0 });
    expect(mail.html).toContain('Roadmap ID 512345');
    expect(mail.html).toContain('Release date moved to April CY2026');
    expect(mail.html).toContain('http://localhost:8080/dashboard?roadmap=512345');
    expect(mail.text).toContain('Hi Ada');
  });

  it("uses the item's latest recorded change when no summary is given (Message Center id in any case)", async () => {
    const msg = await insertMessage(t.ctx.db, { externalId: 'MC1234567', title: 'Exchange: SMTP basic auth retirement' });
    await t.ctx.db.insert(itemHistory).values({
      itemId: msg.id,
      changeType: 'changed',
      changeDate: new Date('2026-02-01T00:00:00Z'),
      changedFields: ['title', 'endDate'],
      previousValues: { title: 'Exchange: SMTP auth', endDate: '2026-03-01T00:00:00Z' },
      newValues: { title: 'Exchange: SMTP basic auth retirement', endDate: '2026-04-01T00:00:00Z' },
    });
    const res = await admin.agent.post('/api/admin/test-notification').send({ itemId: 'mc1234567', itemType: 'message_center' });
    expect(res.status).toBe(200);
    const mail = (await outbox()).at(-1);
    expect(mail.subject).toBe('[Test] Updated: Exchange: SMTP basic auth retirement');
    expect(mail.text).toContain('* Title: Exchange: SMTP auth -> Exchange: SMTP basic auth retirement');
    expect(mail.text).toContain('Message Center · MC1234567');
  });

  it('answers 404 for an unknown item and 400 with the field message for missing fields', async () => {
    const missing = await admin.agent.post('/api/admin/test-notification').send({ itemId: 'MC0', itemType: 'message_center' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Message Center item MC0 not found');
    // The roadmap id exists only as a roadmap item, not as a message.
    expect((await admin.agent.post('/api/admin/test-notification').send({ itemId: '512345', itemType: 'message_center' })).status).toBe(404);
    for (const body of [{}, { itemId: '  ', itemType: 'roadmap' }, { itemId: '1' }, { itemId: '1', itemType: 'blog' }]) {
      const res = await admin.agent.post('/api/admin/test-notification').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].message).toBe('Please fill in Item ID and Item Type');
    }
  });
});

describe('POST /api/admin/test-notification with an SMTP server', () => {
  let smtp: TestContext;
  let sink: SmtpSink;
  let smtpAdmin: Awaited<ReturnType<typeof signIn>>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    smtp = await createTestContext({ SMTP_URL: sink.url, MAIL_FROM: 'radar@example.com' });
    smtpAdmin = await signIn(smtp.app, smtp.ctx.db, { roles: ['Admin'], email: 'ops@example.com', firstName: 'Ops' });
    await insertRoadmapItem(smtp.ctx.db, { externalId: '612345', title: 'Planner: Task history' });
  });
  afterAll(async () => {
    smtp.ctx.services.mail.close();
    await smtp.close();
    await sink.close();
  });

  it("says 'sent' only once the SMTP server has taken the mail", async () => {
    const res = await smtpAdmin.agent.post('/api/admin/test-notification').send({ itemId: '612345', itemType: 'roadmap' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, delivery: 'sent', message: 'Test notification sent to ops@example.com' });
    const received = await sink.waitFor('ops@example.com');
    expect(received.subject).toBe('[Test] Updated: Planner: Task history');
  });

  it("says 'queued' when the SMTP server refuses it for now, and leaves it to the outbox retries", async () => {
    sink.rejectNext(1);
    const res = await smtpAdmin.agent.post('/api/admin/test-notification').send({ itemId: '612345', itemType: 'roadmap' });
    expect(res.body).toEqual({
      success: true,
      delivery: 'queued',
      message: 'Test notification queued for ops@example.com: the mail server did not accept it yet; it will be retried',
    });
    const rows = await smtp.database.pool.query(`SELECT status FROM mail_outbox WHERE kind = 'test-notification' ORDER BY id`);
    expect(rows.rows.map((r) => r.status)).toEqual(['sent', 'pending']);
  });
});
