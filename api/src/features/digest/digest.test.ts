import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { weeklyDigestResponse, weeklyDigestStatus } from '@radar/contracts';
import { digestDeliveries, digestSubscribers, itemHistory, mailOutbox } from '../../db/schema/index.js';
import { WEEKLY_DIGEST_JOB } from '../../jobs/weekly-digest.job.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { createUser, insertMessage, insertRoadmapItem, signedInAgent } from '../../../test/factories.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../../test/smtp-sink.js';
import { confirmDigestByMail } from '../../../test/digest-helpers.js';
import { SIGNUP_MESSAGE } from './digest.service.js';

/** Saturday noon UTC: the window is Jan 31 12:00 → Feb 7 12:00. */
const NOW = '2026-02-07T12:00:00Z';
const SUNDAY_SEND = '2026-02-08T08:00:00Z';

let t: TestContext;
let sink: SmtpSink;

const d = (iso: string) => new Date(iso);
async function changedAt(itemId: number, iso: string) {
  await t.ctx.db
    .insert(itemHistory)
    .values({ itemId, changeType: 'changed', changeDate: d(iso), changedFields: ['title'], previousValues: { title: 'a' }, newValues: { title: 'b' } });
}
const rawHeader = (mail: ReceivedMail, name: string) =>
  mail.parsed.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ');

// Every test starts from its own database and mail server with the same week of items.
beforeEach(async () => {
  sink = await startSmtpSink();
  t = await createTestContext({ SMTP_URL: sink.url }, { now: NOW });
  const db = t.ctx.db;
  await insertRoadmapItem(db, { externalId: '700001', title: 'R1 new', createdDate: d('2026-02-03T10:00:00Z') });
  const r2 = await insertRoadmapItem(db, {
    externalId: '700002',
    title: 'R2 changed',
    createdDate: d('2026-01-10T00:00:00Z'),
    isFeatured: true,
    featuredAt: d('2026-02-06T09:00:00Z'),
  });
  await changedAt(r2.id, '2026-02-05T10:00:00Z');
  const r3 = await insertRoadmapItem(db, { externalId: '700003', title: 'R3 changed before the window', createdDate: d('2026-01-10T00:00:00Z') });
  await changedAt(r3.id, '2026-01-20T10:00:00Z');
  await insertRoadmapItem(db, {
    externalId: '700004',
    title: 'R4 removed',
    createdDate: d('2026-02-04T00:00:00Z'),
    isRemoved: true,
    removedAt: d('2026-02-05T00:00:00Z'),
  });
  const r5 = await insertRoadmapItem(db, { externalId: '700005', title: 'R5 new and changed', createdDate: d('2026-02-02T00:00:00Z') });
  await changedAt(r5.id, '2026-02-05T10:00:00Z');
  await insertRoadmapItem(db, { externalId: '700006', title: 'R6 just before the window', createdDate: d('2026-01-31T11:59:00Z') });
  await insertRoadmapItem(db, { externalId: '700007', title: 'R7 just inside the window', createdDate: d('2026-02-07T11:59:00Z') });

  await insertMessage(db, { externalId: 'MC800001', title: 'M1 new', createdDate: d('2026-02-02T00:00:00Z'), modifiedDate: d('2026-02-02T00:00:00Z') });
  await insertMessage(db, {
    externalId: 'MC800002',
    title: 'M2 updated by Microsoft',
    createdDate: d('2026-01-10T00:00:00Z'),
    modifiedDate: d('2026-02-04T00:00:00Z'),
  });
  const m3 = await insertMessage(db, {
    externalId: 'MC800003',
    title: 'M3 changed in history',
    createdDate: d('2026-01-10T00:00:00Z'),
    modifiedDate: d('2026-01-10T00:30:00Z'),
  });
  await changedAt(m3.id, '2026-02-06T00:00:00Z');
  await insertMessage(db, {
    externalId: 'MC800004',
    title: 'M4 new and updated',
    createdDate: d('2026-02-06T10:00:00Z'),
    modifiedDate: d('2026-02-06T12:00:00Z'),
  });
  await insertMessage(db, {
    externalId: 'MC800005',
    title: 'M5 touched 40 min after publication',
    createdDate: d('2026-01-31T11:30:00Z'),
    modifiedDate: d('2026-01-31T12:10:00Z'),
  });
});

afterEach(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await sink.close();
});

const titles = (list: { title: string }[]) => list.map((i) => i.title);

/** The two subscribers the Sunday tests mail: a confirmed visitor (Vera) and a signed-in member (Mia). */
async function subscribers() {
  const member = await createUser(t.ctx.db, { email: 'member@example.com', firstName: 'Mia', lastName: 'Member' });
  await t.ctx.db.insert(digestSubscribers).values([
    { email: 'visitor@example.com', firstName: 'Vera', lastName: 'Visitor', origin: 'signup', isActive: true, confirmedAt: d(NOW) },
    { email: 'member@example.com', firstName: 'Mia', lastName: 'Member', origin: 'account', userId: member.id, isActive: true, confirmedAt: d(NOW) },
  ]);
}

describe('GET /api/weekly-digest', () => {
  it('lists the past 7 days at a fixed date', async () => {
    const res = await request(t.app).get('/api/weekly-digest');
    expect(res.status).toBe(200);
    const body = weeklyDigestResponse.parse(res.body);
    expect(body.weekRange).toEqual({
      start: '2026-01-31T12:00:00.000Z',
      end: '2026-02-07T12:00:00.000Z',
      startFormatted: 'Jan 31, 2026',
      endFormatted: 'Feb 7, 2026',
      nextUpdateFormatted: 'Sunday, Feb 8, 2026 at 8:00 AM UTC',
    });
    expect(titles(body.roadmap.newItems)).toEqual(['R7 just inside the window', 'R1 new', 'R5 new and changed']);
    expect(titles(body.roadmap.changedItems)).toEqual(['R2 changed']);
    expect(titles(body.messageCenter.newItems)).toEqual(['M4 new and updated', 'M1 new']);
    expect(titles(body.messageCenter.updatedItems)).toEqual(['M3 changed in history', 'M2 updated by Microsoft']);
    const r2 = body.roadmap.changedItems[0]!;
    expect(r2).toMatchObject({ id: 'roadmap-700002', source: 'roadmap', itemId: '700002', messageId: null, isFeatured: true });
    expect(body.messageCenter.newItems[1]).toMatchObject({ id: 'messages-MC800001', messageId: 'MC800001', service: ['Microsoft Teams'] });
  });

  it('moves with the clock', async () => {
    t.clock.set('2026-02-14T12:00:00Z');
    try {
      const body = weeklyDigestResponse.parse((await request(t.app).get('/api/weekly-digest')).body);
      expect(body.weekRange.startFormatted).toBe('Feb 7, 2026');
      expect(body.weekRange.nextUpdateFormatted).toBe('Sunday, Feb 15, 2026 at 8:00 AM UTC');
      expect(body.roadmap.newItems).toEqual([]);
      expect(body.roadmap.changedItems).toEqual([]);
      expect(body.messageCenter.newItems).toEqual([]);
      expect(body.messageCenter.updatedItems).toEqual([]);
    } finally {
      t.clock.set(NOW);
    }
  });
});

describe('POST /api/weekly-digest/signup', () => {
  it('validates each field and names it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: 'A', lastName: 'B' }, 'email'],
      [{ email: 'not-an-address', firstName: 'A', lastName: 'B' }, 'email'],
      [{ email: 'x@example.com', lastName: 'B' }, 'firstName'],
      [{ email: 'x@example.com', firstName: '  ', lastName: 'B' }, 'firstName'],
      [{ email: 'x@example.com', firstName: 'A' }, 'lastName'],
    ];
    for (const [body, field] of cases) {
      const res = await request(t.app).post('/api/weekly-digest/signup').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe(field);
    }
    expect(await t.ctx.db.select().from(digestSubscribers)).toEqual([]);
  });

  it('answers the same every time and subscribes only once the mailed link is confirmed', async () => {
    const first = await request(t.app).post('/api/weekly-digest/signup').send({ email: ' Visitor@Example.com ', firstName: 'Vera', lastName: 'Visitor' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, message: SIGNUP_MESSAGE });
    let [row] = await t.ctx.db.select().from(digestSubscribers);
    expect(row).toMatchObject({ email: 'visitor@example.com', firstName: 'Vera', isActive: false, confirmedAt: null, origin: 'signup' });
    expect((await confirmDigestByMail(t, 'visitor@example.com')).status).toBe(200);
    [row] = await t.ctx.db.select().from(digestSubscribers);
    expect(row).toMatchObject({ isActive: true, confirmedAt: d(NOW), confirmTokenHash: null });
    // Signing up again with a subscribed address: the same answer, no new mail, nothing changes.
    const outboxBefore = (await t.ctx.db.select().from(mailOutbox)).length;
    const second = await request(t.app).post('/api/weekly-digest/signup').send({ email: 'visitor@example.com', firstName: 'Other', lastName: 'Name' });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(await t.ctx.db.select().from(mailOutbox)).toHaveLength(outboxBefore);
    const rows = await t.ctx.db.select().from(digestSubscribers);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ firstName: 'Vera', lastName: 'Visitor', isActive: true });
  });
});

describe('signed-in digest toggle', () => {
  it('needs a session', async () => {
    expect((await request(t.app).get('/api/weekly-digest/status')).status).toBe(401);
    expect((await request(t.app).post('/api/weekly-digest/subscribe-authenticated')).status).toBe(401);
    expect((await request(t.app).post('/api/weekly-digest/unsubscribe-authenticated')).status).toBe(401);
  });

  it('subscribes, reports and unsubscribes the account address, linking the subscriber to the user', async () => {
    const user = await createUser(t.ctx.db, { email: 'member@example.com', firstName: 'Mia', lastName: 'Member' });
    const agent = await signedInAgent(t.app, t.ctx.db, user);
    expect(weeklyDigestStatus.parse((await agent.get('/api/weekly-digest/status')).body)).toEqual({ isSubscribed: false, email: 'member@example.com' });

    const on = await agent.post('/api/weekly-digest/subscribe-authenticated');
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ success: true, message: 'Successfully subscribed to the weekly digest', isSubscribed: true, email: 'member@example.com' });
    expect((await agent.get('/api/weekly-digest/status')).body).toEqual({ isSubscribed: true, email: 'member@example.com' });
    const [row] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'member@example.com'));
    expect(row).toMatchObject({ userId: user.id, origin: 'account', isActive: true, firstName: 'Mia' });

    const off = await agent.post('/api/weekly-digest/unsubscribe-authenticated');
    expect(off.body).toEqual({ success: true, message: 'Successfully unsubscribed from the weekly digest', isSubscribed: false, email: 'member@example.com' });
    expect((await agent.get('/api/weekly-digest/status')).body).toEqual({ isSubscribed: false, email: 'member@example.com' });
    // Subscribing twice is harmless.
    await agent.post('/api/weekly-digest/subscribe-authenticated');
    await agent.post('/api/weekly-digest/subscribe-authenticated');
    expect(await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'member@example.com'))).toHaveLength(1);
  });

  it('sees a visitor signup made earlier with the same address', async () => {
    await t.ctx.db
      .insert(digestSubscribers)
      .values({ email: 'visitor@example.com', firstName: 'Vera', lastName: 'Visitor', origin: 'signup', isActive: true, confirmedAt: d(NOW) });
    const user = await createUser(t.ctx.db, { email: 'visitor@example.com' });
    const agent = await signedInAgent(t.app, t.ctx.db, user);
    expect((await agent.get('/api/weekly-digest/status')).body).toEqual({ isSubscribed: true, email: 'visitor@example.com' });
    await agent.post('/api/weekly-digest/unsubscribe-authenticated');
    const [row] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'visitor@example.com'));
    expect(row).toMatchObject({ isActive: false, userId: user.id });
    await agent.post('/api/weekly-digest/subscribe-authenticated');
  });
});

describe('the Sunday digest', () => {
  it('is scheduled with Agenda every Sunday at the configured hour and zone, and sends once per subscriber per week', async () => {
    // Subscribers: visitor@ and member@ (active), one more inactive one, and an unconfirmed signup.
    await subscribers();
    await t.ctx.db.insert(digestSubscribers).values({ email: 'gone@example.com', origin: 'signup', isActive: false });
    await request(t.app).post('/api/weekly-digest/signup').send({ email: 'unconfirmed@example.com', firstName: 'U', lastName: 'C' });
    t.clock.set(SUNDAY_SEND);
    // The confirmation mails go first, so the sink then holds digests only.
    await t.ctx.services.mail.deliverNow();
    sink.clear();
    const runner = createTestJobRunner(t);
    await runner.start();
    try {
      const { rows } = await t.database.pool.query(`select repeat_interval, repeat_timezone, next_run_at from agenda_jobs where name = $1`, [
        WEEKLY_DIGEST_JOB,
      ]);
      expect(rows).toHaveLength(1);
      expect(rows[0].repeat_interval).toBe('0 8 * * 0');
      expect(rows[0].repeat_timezone).toBe('UTC');
      const next = new Date(rows[0].next_run_at);
      expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([0, 8, 0]);

      const runJob = () =>
        new Promise<void>((resolve, reject) => {
          runner.agenda.once(`complete:${WEEKLY_DIGEST_JOB}`, () => resolve());
          runner.agenda.once(`fail:${WEEKLY_DIGEST_JOB}`, (err: Error) => reject(err));
          void runner.agenda.now(WEEKLY_DIGEST_JOB);
        });
      await runJob();
      const visitor = await sink.waitFor('visitor@example.com', 15_000);
      const member = await sink.waitFor('member@example.com', 15_000);
      await runJob();
      await t.ctx.services.mail.deliverNow();

      const deliveries = await t.ctx.db.select().from(digestDeliveries);
      expect(deliveries).toHaveLength(2);
      expect(new Set(deliveries.map((x) => x.weekStart))).toEqual(new Set(['2026-02-08']));
      expect(deliveries.every((x) => x.outboxId !== null)).toBe(true);
      expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(['member@example.com', 'visitor@example.com']);

      expect(member.subject).toBe('Your M365 Radar weekly digest: Feb 1, 2026 – Feb 8, 2026');
      expect(member.text).toContain('Hi Mia');
      // Content: the 7 days up to Sunday 08:00.
      expect(member.text).toContain('== Featured this week (1) ==');
      expect(member.text).toContain('== New on the roadmap (3) ==');
      expect(member.text).toContain('R1 new');
      expect(member.text).toContain('http://localhost:8080/roadmap/700001');
      expect(member.text).toContain('== Updated on the roadmap (1) ==');
      expect(member.text).toContain('== New in Message Center (2) ==');
      expect(member.text).toContain('http://localhost:8080/message/MC800001');
      expect(member.text).toContain('== Updated in Message Center (2) ==');
      expect(member.html).toContain('name="color-scheme"');
      expect(member.html).toContain('R2 changed');
      expect(rawHeader(member, 'List-Unsubscribe')).toMatch(/^<http:\/\/localhost:8080\/api\/unsubscribe\?token=[^>]+>$/);
      expect(rawHeader(member, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(visitor.text).toContain('Hi Vera');
      expect(rawHeader(visitor, 'List-Unsubscribe')).not.toBe(rawHeader(member, 'List-Unsubscribe'));
    } finally {
      t.ctx.services.mail.setKicker(null);
      await runner.stop();
      t.clock.set(NOW);
    }
  });

  it('a run resumed after a crash sends only to the subscribers still missing, and a second run none', async () => {
    await subscribers();
    const week = '2026-02-15T09:00:00Z';
    const [visitor] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'visitor@example.com'));
    // The crashed run had done the visitor (delivery + outbox row committed together) and died before the member.
    await t.ctx.db.insert(digestDeliveries).values({ subscriberId: visitor!.id, weekStart: '2026-02-15' });
    const first = await t.ctx.services.digest.sendWeeklyDigest({ now: d(week) });
    expect(first).toEqual({ weekStart: '2026-02-15', queued: 1, alreadySent: 1 });
    const again = await t.ctx.services.digest.sendWeeklyDigest({ now: d('2026-02-15T10:00:00Z') });
    expect(again).toEqual({ weekStart: '2026-02-15', queued: 0, alreadySent: 2 });
    const outbox = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.dedupeKey} like 'weekly-digest:%:2026-02-15'`);
    expect(outbox.map((o) => o.toAddress)).toEqual(['member@example.com']);
  });

  it('gives each subscriber the week rendered once with their name and link in place, as a render of their own reads', async () => {
    const odd = [
      { email: 'quote@example.com', firstName: `O'Brien <b>&"x"</b>`, lastName: 'Q' },
      { email: 'dollar@example.com', firstName: '$& $1 $$ RADARDIGESTFIRSTNAMEMARK', lastName: 'D' },
      { email: 'noname@example.com', firstName: null, lastName: null },
    ];
    await t.ctx.db.insert(digestSubscribers).values(odd.map((o) => ({ ...o, origin: 'signup' as const, isActive: true, confirmedAt: d(NOW) })));
    const end = d('2026-02-15T08:00:00Z');
    expect(await t.ctx.services.digest.sendWeeklyDigest({ now: end })).toMatchObject({ queued: 3 });
    const rows = await t.ctx.db.select().from(digestSubscribers);
    for (const subscriber of rows) {
      const [queued] = await t.ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `weekly-digest:${subscriber.id}:2026-02-15`));
      const own = await t.ctx.services.digest.renderDigestFor(subscriber, end);
      expect({ subject: queued!.subject, html: queued!.html, text: queued!.text, headers: queued!.headers }).toEqual(own);
    }
    const quoted = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'quote@example.com'));
    expect(quoted[0]!.html).toContain('Hi O&#x27;Brien &lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;, here');
    expect(quoted[0]!.text).toContain(`Hi O'Brien <b>&"x"</b>, here`);
  });

  it('unsubscribes a digest subscriber by the one-click link', async () => {
    await subscribers();
    await t.ctx.services.digest.sendWeeklyDigest({ now: d('2026-02-15T09:00:00Z') });
    sink.clear();
    await t.ctx.services.mail.deliverNow();
    const mail = await sink.waitFor('member@example.com');
    const path = String(rawHeader(mail, 'List-Unsubscribe')).replace(/^<http:\/\/localhost:8080|>$/g, '');
    const page = await request(t.app).get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('the M365 Radar weekly digest');
    const [stillOn] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'member@example.com'));
    expect(stillOn!.isActive).toBe(true);
    const res = await request(t.app).post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    const [off] = await t.ctx.db.select().from(digestSubscribers).where(eq(digestSubscribers.email, 'member@example.com'));
    expect(off!.isActive).toBe(false);
    const next = await t.ctx.services.digest.sendWeeklyDigest({ now: d('2026-02-22T08:00:00Z') });
    expect(next).toMatchObject({ weekStart: '2026-02-22', queued: 1 });
    const outbox = await t.ctx.db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.dedupeKey} like 'weekly-digest:%:2026-02-22'`);
    expect(outbox.map((o) => o.toAddress)).toEqual(['visitor@example.com']);
  });
});

describe('signup rate limit', () => {
  it('answers 429 after too many signups from one client address', async () => {
    const fresh = await createTestContext();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await request(fresh.app)
          .post('/api/weekly-digest/signup')
          .send({ email: `r${i}@example.com`, firstName: 'R', lastName: 'L' });
        statuses.push(res.status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await fresh.close();
    }
  });
});
