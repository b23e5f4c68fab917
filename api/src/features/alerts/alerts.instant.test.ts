import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import request from 'supertest';
import { ADAPTIVE_CARD_VERSION, alertWebhookPayload, WEBHOOK_HEADERS } from '@radar/contracts';
import { signIn } from '../../../test/auth-helpers.js';
import type { TestContext } from '../../../test/context.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { rawHeader, startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { T_A, T_B } from '../../../test/sync-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

/**
 * Instant alerts end to end: the production sync (roadmap A → B from the replay server) runs the alert hook exactly
 * as services.ts wires it; Teams, Slack and a generic webhook are real HTTP receivers on 127.0.0.1
 * (ALLOW_PRIVATE_WEBHOOKS) and e-mail goes through the outbox to a real SMTP server.
 *
 * A → B: 499999 "Word: Draft with Copilot from a template" is new; 500002 (a Copilot item) In development → Rolling out.
 */
const AdaptiveCards = createRequire(import.meta.url)('adaptivecards/dist/adaptivecards.js');

let server: ReplayServer;
let sink: SmtpSink;
let t: TestContext;
let ada: string;
const receivers: Record<'teams' | 'slack' | 'hook', WebhookReceiver> = {} as never;
const channels: Record<'email' | 'teams' | 'slack' | 'hook', number> = {} as never;
let signingSecret = '';
let copilotId = 0;

async function syncTo(name: string, at: string) {
  server.setRoadmap(name);
  t.clock.set(at);
  const result = await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' });
  expect(result.run.status).toBe('success');
  return result.run.id;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  for (const k of ['teams', 'slack', 'hook'] as const) receivers[k] = await startWebhookReceiver();
  ({ t, server } = await createReplayTestContext({ SMTP_URL: sink.url, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: T_A }));
  server.addRoadmap(
    'C',
    JSON.stringify(
      (JSON.parse(readFixture('roadmap-b.json')) as { id: number; status: string }[]).map((i) => (i.id === 500002 ? { ...i, status: 'Launched' } : i)),
    ),
  );
  await syncTo('A', T_A);
  t.clock.set('2026-02-01T09:00:00Z');
  ada = await signIn(t, 'ada@example.com', { firstName: 'Ada', lastName: 'Lovelace' });
  // The sign-in code goes out at once on the interactive lane: taken here, so the mails below are the alerts.
  expect((await sink.waitFor('ada@example.com')).subject).toMatch(/sign-in code/);
  const add = async (body: object) =>
    (await request(t.app).post('/api/alert-channels').set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin').send(body)).body;
  channels.email = (await add({ kind: 'email', name: 'My e-mail' })).id;
  channels.teams = (await add({ kind: 'teams', name: 'IT Teams', url: `${receivers.teams.url}/workflows/abc` })).id;
  channels.slack = (await add({ kind: 'slack', name: 'Slack #m365', url: `${receivers.slack.url}/services/T0/B0/xyz` })).id;
  const hook = await add({ kind: 'webhook', name: 'SIEM', url: `${receivers.hook.url}/radar` });
  channels.hook = hook.id;
  signingSecret = hook.signingSecret;
  const save = async (body: object) =>
    (await request(t.app).post('/api/saved-searches').set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin').send(body)).body;
  copilotId = (await save({ name: 'Copilot', query: { search: 'Copilot' }, alertOn: ['new', 'changed'], channelIds: Object.values(channels) })).id;
  await save({ name: 'Now rolling out', query: { roadmapStatuses: ['Rolling out'] }, alertOn: ['changed'], channelIds: [channels.teams] });
  await save({ name: 'Message Center only', query: { sources: ['messages'] }, alertOn: ['new', 'changed'], channelIds: [channels.teams] });
  await save({ name: 'Paused', query: {}, alertOn: ['new', 'changed'], channelIds: [channels.teams], paused: true });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await sink.close();
  for (const r of Object.values(receivers)) await r.close();
});

describe('instant alerts after a sync', () => {
  let syncId = 0;
  beforeAll(async () => {
    syncId = await syncTo('B', T_B);
    expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 3, retrying: 0, failed: 0 });
    await t.ctx.services.mail.deliverNow();
  });

  it('sends Teams ONE Adaptive Card for the sync with every matching search, valid against the Adaptive Card schema', () => {
    expect(receivers.teams.requests).toHaveLength(1);
    const message = JSON.parse(receivers.teams.requests[0]!.body);
    expect(message.type).toBe('message');
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    const content = message.attachments[0].content;
    expect(content).toMatchObject({ type: 'AdaptiveCard', version: ADAPTIVE_CARD_VERSION, $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    // Microsoft's own parser: unknown element types, bad property values and missing required properties are events.
    const card = new AdaptiveCards.AdaptiveCard();
    const context = new AdaptiveCards.SerializationContext();
    context.targetVersion = AdaptiveCards.Version.parse(ADAPTIVE_CARD_VERSION, context);
    card.parse(content, context);
    const events = Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
    expect(events).toEqual([]);
    expect(card.validateProperties().validationEvents).toEqual([]);
    expect(card.version.toString()).toBe(ADAPTIVE_CARD_VERSION);
    const text = JSON.stringify(content);
    expect(text).toContain('Copilot');
    expect(text).toContain('Now rolling out');
    expect(text).not.toContain('Message Center only');
    expect(text).not.toContain('Paused');
    expect(text).toContain('Status: In development → Rolling out');
    expect(text).toContain('New roadmap item');
    expect(text).toContain(`http://localhost:8080/dashboard?savedSearch=${copilotId}`);
    expect(text).toContain('http://localhost:8080/roadmap/499999');
    // Source badge beside each item title.
    expect(text).toContain('"text":"Roadmap"');
  });

  it('sends Slack a Block Kit message with the same content, within Slack limits', () => {
    expect(receivers.slack.requests).toHaveLength(1);
    const message = JSON.parse(receivers.slack.requests[0]!.body);
    expect(typeof message.text).toBe('string');
    expect(message.text).toMatch(/new or changed items? in “Copilot”/);
    const blocks = message.blocks as { type: string; text?: { type: string; text: string }; elements?: { type: string; text: string }[] }[];
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(blocks[0]!.text!.text.length).toBeLessThanOrEqual(150);
    for (const block of blocks) {
      expect(['header', 'section', 'context', 'divider']).toContain(block.type);
      if (block.type === 'section') {
        expect(block.text!.type).toBe('mrkdwn');
        expect(block.text!.text.length).toBeLessThanOrEqual(3000);
      }
      if (block.type === 'context') for (const e of block.elements!) expect(e.type).toBe('mrkdwn');
    }
    const all = JSON.stringify(blocks);
    expect(all).toContain('<http://localhost:8080/roadmap/500002|');
    expect(all).toContain('`Roadmap` Status: In development → Rolling out');
    expect(all).toContain('Manage alerts');
  });

  it('signs the generic webhook body with the channel secret and a timestamp; the body follows the contract', () => {
    expect(receivers.hook.requests).toHaveLength(1);
    const { headers, body } = receivers.hook.requests[0]!;
    const timestamp = String(headers[WEBHOOK_HEADERS.timestamp.toLowerCase()]);
    expect(Number(timestamp)).toBe(Math.floor(t.clock.now().getTime() / 1000));
    const expected = `v1=${crypto.createHmac('sha256', signingSecret).update(`${timestamp}.${body}`).digest('hex')}`;
    expect(headers[WEBHOOK_HEADERS.signature.toLowerCase()]).toBe(expected);
    // The signature covers the timestamp: another timestamp with the same body does not verify.
    expect(
      crypto
        .createHmac('sha256', signingSecret)
        .update(`${Number(timestamp) + 1}.${body}`)
        .digest('hex'),
    ).not.toBe(expected.slice(3));
    const payload = alertWebhookPayload.parse(JSON.parse(body));
    expect(headers[WEBHOOK_HEADERS.delivery.toLowerCase()]).toBe(payload.id);
    expect(headers[WEBHOOK_HEADERS.event.toLowerCase()]).toBe('radar.alert');
    expect(payload).toMatchObject({
      type: 'radar.alert',
      trigger: 'instant',
      channel: { id: channels.hook, name: 'SIEM' },
      window: { from: null, to: T_B.replace('Z', '.000Z') },
    });
    expect(payload.sections).toHaveLength(1);
    const section = payload.sections[0]!;
    expect(section.savedSearch).toEqual({ id: copilotId, name: 'Copilot', scope: 'personal' });
    const byId = Object.fromEntries(section.items.map((i) => [i.externalId, i]));
    expect(byId['499999']).toMatchObject({ change: 'new', source: 'roadmap', title: 'Word: Draft with Copilot from a template', changes: [] });
    expect(byId['500002']).toMatchObject({ change: 'changed', changes: expect.arrayContaining(['Status: In development → Rolling out']) });
    expect(section.total).toBe(section.items.length);
  });

  it('mails the owner with HTML and text parts and a one-click unsubscribe per saved search', async () => {
    const mail = await sink.waitFor('ada@example.com');
    expect(mail.subject).toMatch(/new or changed items? in “Copilot”/);
    expect(mail.text).toContain('Word: Draft with Copilot from a template');
    expect(mail.text).toContain('* Status: In development -> Rolling out'.replace('->', '→'));
    expect(mail.html).toContain('Stop e-mails for this search');
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const link = String(rawHeader(mail, 'List-Unsubscribe')).replace(/^<|>$/g, '');
    const token = new URL(link).searchParams.get('token')!;
    const page = await request(t.app).get(`/api/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('e-mail alerts of your saved search “Copilot”');
    const done = await request(t.app)
      .post(`/api/unsubscribe?token=${encodeURIComponent(token)}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(done.status).toBe(200);
    const saved = (await request(t.app).get(`/api/saved-searches/${copilotId}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body;
    expect(saved.channelIds).not.toContain(channels.email);
    expect(saved.channelIds).toContain(channels.teams);
  });

  it('sends nothing twice: re-running the sync step and the sweep write no new delivery', async () => {
    const before = (await t.database.pool.query('select count(*)::int n from alert_deliveries')).rows[0].n;
    expect(await t.ctx.services.alerts.alertSync(syncId)).toMatchObject({ claimed: false, messages: 0 });
    expect(await t.ctx.services.alerts.sweep()).toEqual([]);
    expect((await t.database.pool.query('select count(*)::int n from alert_deliveries')).rows[0].n).toBe(before);
    expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('the next sync alerts the remaining channels only, and the delivery log shows each delivery', async () => {
    for (const r of Object.values(receivers)) r.reset();
    sink.clear();
    await syncTo('C', '2026-02-08T00:40:00Z');
    expect(await t.ctx.services.alerts.deliverNow()).toMatchObject({ sent: 3 });
    await t.ctx.services.mail.deliverNow();
    expect(JSON.stringify(JSON.parse(receivers.teams.requests[0]!.body))).toContain('Status: Rolling out → Launched');
    expect(sink.messages.filter((m) => m.to.includes('ada@example.com'))).toHaveLength(0);
    const log = (await request(t.app).get(`/api/alert-channels/${channels.teams}/deliveries`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body;
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ trigger: 'instant', outcome: 'sent', statusCode: 200, response: 'ok', error: null });
    expect(log[0].latencyMs).toEqual(expect.any(Number));
    const mailLog = (await request(t.app).get(`/api/alert-channels/${channels.email}/deliveries`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body;
    expect(mailLog).toHaveLength(1);
    expect(mailLog[0]).toMatchObject({ outcome: 'sent', statusCode: null, response: 'Accepted by the mail server' });
  });

  it('"Send test" posts a signed test message and answers how the receiver replied', async () => {
    receivers.hook.reset();
    const res = await request(t.app).post(`/api/alert-channels/${channels.hook}/test`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, entry: { trigger: 'test', outcome: 'sent', statusCode: 200, response: 'ok' } });
    expect(res.body.message).toMatch(/^Test message delivered to “SIEM” \(HTTP 200 in \d+ ms\)$/);
    expect(receivers.hook.requests[0]!.headers[WEBHOOK_HEADERS.event.toLowerCase()]).toBe('radar.test');
    expect(alertWebhookPayload.parse(JSON.parse(receivers.hook.requests[0]!.body)).type).toBe('radar.test');
    receivers.slack.answerNext({ status: 404, body: 'no_service' });
    const failed = await request(t.app).post(`/api/alert-channels/${channels.slack}/test`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    expect(failed.body).toMatchObject({
      success: false,
      message: 'Test message not delivered: HTTP 404: the receiver refused the message',
      entry: { statusCode: 404, response: 'no_service' },
    });
    const email = await request(t.app).post(`/api/alert-channels/${channels.email}/test`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    // Interactive priority: the api sends it at once itself, so it may already be with the mail server.
    expect(email.body.success).toBe(true);
    expect(email.body.message).toMatch(/^Test e-mail (queued for|sent to) ada@example\.com$/);
    expect(['queued', 'sent']).toContain(email.body.entry.outcome);
    expect((await sink.waitFor('ada@example.com')).subject).toBe('Test alert from M365 Radar');
    const [row] = (await t.database.pool.query(`select priority from mail_outbox where kind = 'saved-search-alert' order by id desc limit 1`)).rows;
    expect(row.priority).toBe(0);
  });
});
