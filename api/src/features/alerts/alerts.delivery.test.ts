import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { CHANNEL_PAUSE_AFTER_FAILURES } from '@radar/contracts';
import { signIn } from '../../../test/auth-helpers.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { DbOrTx } from '../../db/client.js';
import { testSections } from './alert-message.js';
import { enqueueAlert, newPublicId } from './alert-enqueue.js';
import { ALERT_DELIVERY } from './alert-delivery.js';
import { createChannelsRepo } from './channels.repo.js';
import type { Resolver } from './ssrf-guard.js';

/**
 * Delivery like a real integration, against a real receiver on 127.0.0.1: backoff on 5xx and network errors,
 * Retry-After on 429 (capped), no retry on other 4xx or redirects, the 500-character log excerpt, giving up after
 * the last attempt, pausing a channel after 10 failures in a row with a mail to its owner, and the SSRF guard again
 * at delivery time (a DNS answer that changed after the channel was saved).
 */
let t: TestContext;
let receiver: WebhookReceiver;
let cookie: string;
let channelId: number;
const MINUTE = 60_000;

async function queue(id = channelId, key: string | null = null) {
  const channel = (await createChannelsRepo(t.ctx.db).byId(id))!;
  const m = {
    publicId: newPublicId(),
    trigger: 'instant' as const,
    createdAt: t.clock.now(),
    window: { from: null, to: t.clock.now() },
    channel: { id, name: channel.name },
    sections: testSections(t.ctx.publicUrl),
    settingsUrl: '',
  };
  return t.ctx.db.transaction((tx) =>
    enqueueAlert(tx as DbOrTx, { publicUrl: t.ctx.publicUrl, secret: t.ctx.secret, mail: t.ctx.services.mail }, channel, m, key),
  );
}
const delivery = async (id: number) => (await t.database.pool.query('select * from alert_deliveries where id = $1', [id])).rows[0];
const log = async (id = channelId) =>
  (await request(t.app).get(`/api/alert-channels/${id}/deliveries`).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body;
const deliver = () => t.ctx.services.alerts.deliverNow();

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
  cookie = await signIn(t, 'owner@example.com', { firstName: 'Olga', lastName: 'Owner' });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(async () => {
  receiver.reset();
  await t.database.pool.query('delete from alert_deliveries');
  const res = await request(t.app)
    .post('/api/alert-channels')
    .set('Cookie', cookie)
    .set('Sec-Fetch-Site', 'same-origin')
    .send({ kind: 'slack', name: `Slack ${Date.now()}`, url: `${receiver.url}/services/x` });
  channelId = res.body.id;
});

describe('retries', () => {
  it('retries a 503 with backoff and a 429 after its Retry-After, then sends once', async () => {
    const id = (await queue())!;
    receiver.answerNext({ status: 503, body: 'busy' }, { status: 429, body: 'slow down', headers: { 'Retry-After': '120' } });
    expect(await deliver()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect((await delivery(id)).next_attempt_at.getTime()).toBe(t.clock.now().getTime() + MINUTE);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    t.clock.advance(MINUTE);
    expect(await deliver()).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect((await delivery(id)).next_attempt_at.getTime()).toBe(t.clock.now().getTime() + 120_000);
    t.clock.advance(119_000);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    t.clock.advance(1_000);
    expect(await deliver()).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
    expect((await delivery(id)).status).toBe('sent');
    const entries = await log();
    expect(entries.map((e: { statusCode: number }) => e.statusCode)).toEqual([200, 429, 503]);
    expect(entries.map((e: { outcome: string }) => e.outcome)).toEqual(['sent', 'retrying', 'retrying']);
    expect(entries[1]).toMatchObject({ response: 'slow down', error: 'HTTP 429 Too Many Requests (Retry-After 120)' });
    expect((await createChannelsRepo(t.ctx.db).byId(channelId))!.consecutiveFailures).toBe(0);
  });

  it('caps a huge Retry-After at an hour', async () => {
    const id = (await queue())!;
    receiver.answerNext({ status: 429, headers: { 'Retry-After': '999999' } });
    await deliver();
    expect((await delivery(id)).next_attempt_at.getTime()).toBe(t.clock.now().getTime() + ALERT_DELIVERY.maxRetryAfterMs);
  });

  it('never retries other 4xx answers (408 too) or redirects, and keeps the first 500 characters of an answer', async () => {
    const a = (await queue())!;
    receiver.answerNext({ status: 400, body: `invalid_payload ${'x'.repeat(700)}` });
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await delivery(a)).status).toBe('failed');
    const [entry] = await log();
    expect(entry).toMatchObject({ outcome: 'failed', statusCode: 400, error: 'HTTP 400: the receiver refused the message' });
    expect(entry.response).toHaveLength(500);
    expect(entry.response.startsWith('invalid_payload x')).toBe(true);
    const b = (await queue())!;
    receiver.answerNext({ status: 302, headers: { Location: 'http://169.254.169.254/' } });
    await deliver();
    expect((await delivery(b)).last_error).toBe('HTTP 302: redirects are not followed; use the final URL');
    const c = (await queue())!;
    receiver.answerNext({ status: 408 });
    await deliver();
    expect((await delivery(c)).status).toBe('failed');
    t.clock.advance(24 * 60 * MINUTE);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(3);
  });

  it('retries network errors (no status code) and gives up after the last attempt', async () => {
    const closed = await startWebhookReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    const res = await request(t.app)
      .post('/api/alert-channels')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ kind: 'webhook', name: 'Gone', url });
    const id = (await queue(res.body.id))!;
    for (let i = 1; i < ALERT_DELIVERY.maxAttempts; i++) {
      expect(await deliver()).toEqual({ sent: 0, retrying: 1, failed: 0 });
      t.clock.advance(ALERT_DELIVERY.maxBackoffMs);
    }
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const row = await delivery(id);
    expect(row).toMatchObject({ status: 'failed', attempts: ALERT_DELIVERY.maxAttempts });
    expect(row.last_error).toMatch(/ECONNREFUSED/);
    const entries = await log(res.body.id);
    expect(entries).toHaveLength(ALERT_DELIVERY.maxAttempts);
    expect(entries[0]).toMatchObject({ statusCode: null, outcome: 'failed' });
  });

  it('a delivery left "sending" by a crashed worker is sent again once its lease ends, exactly once', async () => {
    const id = (await queue())!;
    await t.database.pool.query(`update alert_deliveries set status = 'sending', attempts = 1, next_attempt_at = $1 where id = $2`, [
      new Date(t.clock.now().getTime() + ALERT_DELIVERY.sendingLeaseMs),
      id,
    ]);
    expect((await deliver()).sent).toBe(0);
    t.clock.advance(ALERT_DELIVERY.sendingLeaseMs);
    const [one, two] = await Promise.all([deliver(), deliver()]);
    expect(one.sent + two.sent).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('pausing a failing channel', () => {
  it(`pauses after ${CHANNEL_PAUSE_AFTER_FAILURES} failures in a row, mails the owner once, and holds queued deliveries until resumed`, async () => {
    receiver.answerAlways({ status: 500, body: 'boom' });
    await queue();
    await queue();
    let attempts = 0;
    while (attempts < CHANNEL_PAUSE_AFTER_FAILURES) {
      const r = await deliver();
      attempts += r.retrying + r.failed;
      t.clock.advance(ALERT_DELIVERY.maxBackoffMs);
    }
    const channel = (await createChannelsRepo(t.ctx.db).byId(channelId))!;
    expect(channel).toMatchObject({
      paused: true,
      consecutiveFailures: CHANNEL_PAUSE_AFTER_FAILURES,
      pausedReason: 'Paused after 10 failed deliveries in a row',
    });
    const mails = (await t.database.pool.query(`select * from mail_outbox where kind = 'alert-channel-paused' and to_address = 'owner@example.com'`)).rows;
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Alerts to “${channel.name}” are paused`);
    expect(mails[0].text).toContain('failed 10 deliveries in a row');
    expect(mails[0].text).toContain('Last error: HTTP 500');
    // Paused: nothing is sent, new alerts are not queued for it, queued ones wait.
    const requestsBefore = receiver.requests.length;
    t.clock.advance(ALERT_DELIVERY.maxBackoffMs);
    expect(await deliver()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(requestsBefore);
    const listed = (await request(t.app).get('/api/alert-channels').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body.find(
      (c: { id: number }) => c.id === channelId,
    );
    expect(listed).toMatchObject({ paused: true, consecutiveFailures: 10 });
    receiver.answerAlways(null);
    await request(t.app).put(`/api/alert-channels/${channelId}`).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ paused: false });
    expect((await deliver()).sent).toBeGreaterThanOrEqual(1);
    expect((await createChannelsRepo(t.ctx.db).byId(channelId))!.consecutiveFailures).toBe(0);
  });
});

describe('the SSRF guard again at delivery', () => {
  it('refuses to deliver when the host resolves to a private address by then (DNS rebinding)', async () => {
    let answer = '8.8.8.8';
    const resolve: Resolver = async () => [{ address: answer, family: 4 }];
    const strict = await createTestContext({}, { resolve });
    try {
      const owner = await signIn(strict, 'strict@example.com');
      const created = await request(strict.app)
        .post('/api/alert-channels')
        .set('Cookie', owner)
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ kind: 'teams', name: 'Teams', url: 'https://rebind.example/workflows/1' });
      expect(created.status).toBe(201);
      answer = '169.254.169.254';
      const channel = (await createChannelsRepo(strict.ctx.db).byId(created.body.id))!;
      const m = {
        publicId: newPublicId(),
        trigger: 'instant' as const,
        createdAt: strict.clock.now(),
        window: { from: null, to: strict.clock.now() },
        channel: { id: channel.id, name: channel.name },
        sections: testSections(strict.ctx.publicUrl),
        settingsUrl: '',
      };
      await strict.ctx.db.transaction((tx) =>
        enqueueAlert(tx as DbOrTx, { publicUrl: strict.ctx.publicUrl, secret: strict.ctx.secret, mail: strict.ctx.services.mail }, channel, m, null),
      );
      expect(await strict.ctx.services.alerts.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 1 });
      const [entry] = (await request(strict.app).get(`/api/alert-channels/${channel.id}/deliveries`).set('Cookie', owner).set('Sec-Fetch-Site', 'same-origin'))
        .body;
      expect(entry).toMatchObject({
        outcome: 'failed',
        statusCode: null,
        error: 'Webhook URL host rebind.example cannot be used: it must be a public internet host',
      });
      answer = '127.0.0.1';
      const test = await request(strict.app).post(`/api/alert-channels/${channel.id}/test`).set('Cookie', owner).set('Sec-Fetch-Site', 'same-origin');
      expect(test.body).toMatchObject({ success: false, message: expect.stringContaining('rebind.example cannot be used: it must be a public internet host') });
      expect(test.body.message).not.toContain('127.0.0.1');
    } finally {
      await strict.close();
    }
  });
});
