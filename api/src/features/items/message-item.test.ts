import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import request from 'supertest';
import { messageCenterItemResponse } from '@radar/contracts';
import { itemHistory, items, messageAttachments, notificationSubscriptions } from '../../db/schema/index.js';
import { DERIVED_VERSION } from '../sync/derived-fields.js';
import { rederiveItems } from '../sync/derived-fields.repo.js';
import type { TestContext } from '../../../test/context.js';
import { createUser } from '../../../test/factories.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';

/**
 * The 2026 Message Center post through the product: its sections and rollout timing on the item API, the Timing
 * column's values on the list, and a revision that moves the rollout recorded as a date slip and mailed to followers.
 * Fixtures (test/fixtures/make-fixtures.mjs): MC910001 in the April 2026 format, rollout moved in B; MC910002 with
 * the Deferred feature tag and the tenant's status; MC910003 "Available now"; MC910004 the older bold headings.
 */
let t: TestContext;
let server: ReplayServer;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  ({ t, server } = await createReplayTestContext({ SMTP_URL: sink.url }, { now: '2026-07-01T00:00:00Z' }));
  server.addMessages('2026A', JSON.parse(readFixture('messages-2026-a.json')));
  server.addMessages('2026B', JSON.parse(readFixture('messages-2026-b.json')));
  server.setMessages('2026A');
  expect((await t.ctx.services.sync.syncMessages({ trigger: 'admin' })).run).toMatchObject({ status: 'success', newItems: 4 });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await sink.close();
});

const getItem = async (id: string) => {
  const res = await request(t.app).get(`/api/message-center/items/${id}`);
  expect(res.status).toBe(200);
  return messageCenterItemResponse.parse(res.body);
};

describe('GET /api/message-center/items/{messageId}', () => {
  it('answers the 2026 post cut into its sections, sanitised, with its rollout windows per ring', async () => {
    const item = await getItem('MC910001');
    expect(item.sections.map((s) => [s.kind, s.title])).toEqual([
      ['introduction', 'Introduction'],
      ['whatAndWhy', 'What and Why'],
      ['rollout', 'Rollout Schedule'],
      ['impact', 'Impact on your organization'],
      ['action', 'Action Required/Recommendations'],
      ['compliance', 'Compliance considerations'],
    ]);
    expect(item.sections[4]?.html).toBe('<ul><li>Tell presenters about the new panel.</li></ul>');
    expect(item.bodyContent).toContain('[Rollout Schedule:]');
    expect(item.timing).toEqual([
      { ring: 'Targeted', label: 'late July 2026 to early August 2026', start: '2026-07-21', end: '2026-08-10' },
      { ring: 'general', label: 'mid-August 2026 to late August 2026', start: '2026-08-11', end: '2026-08-31' },
      { ring: 'GCC', label: 'September 2026', start: '2026-09-01', end: '2026-09-30' },
      { ring: 'GCC High', label: 'September 2026', start: '2026-09-01', end: '2026-09-30' },
      { ring: 'DoD', label: 'September 2026', start: '2026-09-01', end: '2026-09-30' },
    ]);
    expect([item.timingStart, item.timingEnd]).toEqual(['2026-07-21', '2026-09-30']);
  });

  it('reads the older headings, bold without brackets; "Available now" is the post date', async () => {
    const old = await getItem('MC910004');
    expect(old.sections.map((s) => s.title)).toEqual(['', 'When this will happen', 'What you can do to prepare']);
    expect(old.timing).toEqual([{ ring: 'general', label: 'early June to mid-June 2026', start: '2026-06-01', end: '2026-06-20' }]);
    expect((await getItem('MC910003')).timing).toEqual([{ ring: 'general', label: 'Available now', start: '2026-06-01', end: '2026-06-01' }]);
  });

  it('says the status for the tenant per platform, and keeps the Deferred feature tag', async () => {
    const item = await getItem('MC910002');
    expect(item.tenantStatus).toEqual([
      { roadmapId: '500003', platform: 'Web', status: 'Scheduled', label: 'Scheduled' },
      { roadmapId: '500003', platform: 'Desktop', status: 'FeatureRolloutStatusNotSupported', label: 'Not supported' },
    ]);
    expect(item.tags).toContain('Deferred feature');
    expect(item.timing?.map((w) => `${w.ring} ${w.start} ${w.end}`)).toEqual(['Standard 2026-07-01 2026-09-30', 'Deferred 2027-01-01 2027-06-30']);
  });

  it('a post without recognisable headings has no sections; unknown ids are 404, malformed ones 400', async () => {
    await t.ctx.db.update(items).set({ bodyHtml: '<p>Plain.</p>' }).where(eq(items.externalId, 'MC910004'));
    expect((await getItem('MC910004')).sections).toEqual([]);
    expect((await request(t.app).get('/api/message-center/items/MC999999')).status).toBe(404);
    const bad = await request(t.app).get('/api/message-center/items/nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/messageId/);
  });

  it('lists the timing on the unified list too', async () => {
    const res = await request(t.app).get('/api/unified/items').query({ search: 'MC910001' });
    expect(res.body.items[0]).toMatchObject({ timingStart: '2026-07-21', timingEnd: '2026-09-30' });
    expect(res.body.items[0].timing).toHaveLength(5);
  });
});

describe('attachments', () => {
  it('lists what Graph lists and serves the kept file as a download, never inline', async () => {
    const item = await getItem('MC910003');
    expect(item.attachmentFiles).toEqual([
      {
        id: 'AAMkAGI2TG93AAA=',
        name: 'Retention labels — guide.pdf',
        contentType: 'application/pdf',
        size: 43,
        lastModified: '2026-06-01T12:00:00Z',
        downloadUrl: '/api/message-center/items/MC910003/attachments/AAMkAGI2TG93AAA%3D',
        unavailableReason: null,
      },
    ]);
    const file = await request(t.app).get(item.attachmentFiles[0]!.downloadUrl!).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Retention labels _ guide.pdf"; filename*=UTF-8''Retention%20labels%20%E2%80%94%20guide.pdf`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(Buffer.from(file.body as Buffer).toString('utf8')).toBe('%PDF-1.4\n% replayed retention labels guide\n');
    expect((await request(t.app).get('/api/message-center/items/MC910003/attachments/nope')).status).toBe(404);
    expect((await getItem('MC910001')).attachmentFiles).toEqual([]);
  });

  it('a list Graph fails to give keeps the stored one: the sync goes on and the post does not change', async () => {
    server.fail({ target: 'attachments', kind: 'status', status: 500, times: 1 });
    const { run } = await t.ctx.services.sync.syncMessages({ trigger: 'admin' });
    expect(run).toMatchObject({ status: 'success', changedItems: 0 });
    expect((await getItem('MC910003')).attachmentFiles).toHaveLength(1);
  });

  it('a file over the size limit is listed with the reason and not asked for again until it changes', async () => {
    const { downloadMissingAttachments } = await import('../sync/message-attachments.js');
    const { createFeedClients } = await import('../sync/wiring.js');
    await t.ctx.db.delete(messageAttachments);
    const deps = { db: t.ctx.db, client: createFeedClients(t.ctx.config, t.clock, t.ctx.log).graph, log: t.ctx.log, now: () => t.clock.now(), maxBytes: 10 };
    expect(await downloadMissingAttachments(deps)).toBe(0);
    const item = await getItem('MC910003');
    expect(item.attachmentFiles[0]).toMatchObject({ downloadUrl: null, unavailableReason: 'Larger than 10 bytes: not kept' });
    const asked = server.requests.length;
    await downloadMissingAttachments(deps);
    expect(server.requests.length).toBe(asked);
    expect(await downloadMissingAttachments({ ...deps, maxBytes: 1000 })).toBe(1);
  });
});

describe('the release calendar', () => {
  it("has an event spanning each post's rollout window, rings on the same days sharing one", async () => {
    const res = await request(t.app).get('/api/feeds/releases.ics').query({ sources: 'messages', search: 'MC910001' });
    expect(res.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents('vevent').map((c) => {
      const e = new ICAL.Event(c);
      return [e.uid, e.summary, e.startDate.toString(), e.endDate.toString(), e.sequence];
    });
    expect(events).toEqual([
      [
        'messages-MC910001-Targeted@localhost:8080',
        'Rollout (Targeted Release): Microsoft Teams: A refreshed share panel in meetings',
        '2026-07-21',
        '2026-08-11',
        0,
      ],
      [
        'messages-MC910001-general@localhost:8080',
        'Rollout (General availability): Microsoft Teams: A refreshed share panel in meetings',
        '2026-08-11',
        '2026-09-01',
        0,
      ],
      [
        'messages-MC910001-GCC@localhost:8080',
        'Rollout (GCC, GCC High, DoD): Microsoft Teams: A refreshed share panel in meetings',
        '2026-09-01',
        '2026-10-01',
        0,
      ],
    ]);
  });
});

describe('a revision that moves the rollout', () => {
  it('is recorded as a timing change and a date slip, and mailed to followers as "Rollout moved"', async () => {
    const alice = await createUser(t.ctx.db, { email: 'alice@example.com', firstName: 'Alice' });
    await t.ctx.db
      .insert(notificationSubscriptions)
      .values({ userId: alice.id, itemType: 'message_center', itemExternalId: 'MC910001', itemTitle: 'Share panel', changeTypes: ['status_change'] });
    t.clock.set('2026-07-31T12:00:00Z');
    server.setMessages('2026B');
    const { run } = await t.ctx.services.sync.syncMessages({ trigger: 'admin' });
    expect(run).toMatchObject({ status: 'success', changedItems: 2 });

    const [row] = await t.ctx.db.select().from(items).where(eq(items.externalId, 'MC910001'));
    const [entry] = await t.ctx.db
      .select()
      .from(itemHistory)
      .where(and(eq(itemHistory.itemId, row!.id), eq(itemHistory.changeType, 'changed')));
    expect(entry?.changedFields).toEqual(expect.arrayContaining(['timing', 'bodyContent', 'title']));
    expect((entry?.newValues.timing as { start: string }[])[0]).toMatchObject({ ring: 'Targeted', start: '2026-08-21' });
    expect(row).toMatchObject({ gaMoves: 1, gaShiftMonths: 1, timingStart: '2026-08-21', timingEnd: '2026-11-30' });

    const listed = await request(t.app).get('/api/unified/items').query({ search: 'MC910001' });
    expect(listed.body.items[0].releaseMoves).toMatchObject({ gaMoves: 1, gaShiftMonths: 1 });
    // Calendar clients update the events in place: same UIDs, SEQUENCE 1, the new dates.
    const ics = await request(t.app).get('/api/feeds/releases.ics').query({ sources: 'messages', search: 'MC910001' });
    const moved = new ICAL.Component(ICAL.parse(ics.text)).getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
    expect(moved.map((e) => [e.uid, e.startDate.toString(), e.sequence])).toEqual([
      ['messages-MC910001-Targeted@localhost:8080', '2026-08-21', 1],
      ['messages-MC910001-general@localhost:8080', '2026-10-01', 1],
      ['messages-MC910001-GCC@localhost:8080', '2026-11-01', 1],
    ]);

    await t.ctx.services.mail.deliverNow();
    const mail = await sink.waitFor('alice@example.com');
    expect(mail.subject).toBe(
      'Rollout moved: (Updated) Microsoft Teams: A refreshed share panel in meetings is now late August 2026 to early September 2026 (Targeted Release)',
    );
    expect(mail.text).toContain(
      '>> ROLLOUT MOVED: late July 2026 to early August 2026 (Targeted Release) -> late August 2026 to early September 2026 (Targeted Release) (+1 month)',
    );
    // The post's schedule and what it asks of admins, as they read now.
    expect(mail.text).toContain('Rollout Schedule: Targeted Release: We will begin rolling out in late August 2026 (previously late July)');
    expect(mail.text).toContain('Action Required/Recommendations: Tell presenters about the new panel.');
    expect(mail.html).toContain('<strong>Action Required/Recommendations</strong>');
  });

  it('a better reading of a stored body is not a change: the start-up task derives old rows again without history', async () => {
    const historyBefore = (await t.ctx.db.select().from(itemHistory)).length;
    await t.ctx.db.update(items).set({ derivedVersion: 0, timing: [], timingStart: null, timingEnd: null });
    expect(await rederiveItems(t.ctx.db)).toBeGreaterThan(0);
    const [row] = await t.ctx.db.select().from(items).where(eq(items.externalId, 'MC910001'));
    expect(row).toMatchObject({ timingStart: '2026-08-21', timingEnd: '2026-11-30', derivedVersion: DERIVED_VERSION });
    expect((await t.ctx.db.select().from(itemHistory)).length).toBe(historyBefore);
    expect((await t.ctx.services.sync.syncMessages({ trigger: 'admin' })).run).toMatchObject({ status: 'success', changedItems: 0 });
  });
});
