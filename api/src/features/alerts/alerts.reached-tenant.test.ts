import { afterAll, beforeAll, expect, it } from '@jest/globals';
import request from 'supertest';
import { alertWebhookPayload } from '@radar/contracts';
import { signIn } from '../../../test/auth-helpers.js';
import type { TestContext } from '../../../test/context.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

/**
 * "Reached your tenant": a saved search that alerts on it hears when the rollout status Microsoft reports for the
 * organisation turns Launched, and not about other changes. 2026 posts A → B: MC910002's Web status goes Scheduled →
 * Launched; MC910001's rollout moves (a change, not a launch).
 */
let t: TestContext;
let server: ReplayServer;
let sink: SmtpSink;
let hook: WebhookReceiver;

beforeAll(async () => {
  sink = await startSmtpSink();
  hook = await startWebhookReceiver();
  ({ t, server } = await createReplayTestContext({ SMTP_URL: sink.url, ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: '2026-07-01T00:00:00Z' }));
  server.addMessages('2026A', JSON.parse(readFixture('messages-2026-a.json')));
  server.addMessages('2026B', JSON.parse(readFixture('messages-2026-b.json')));
  server.setMessages('2026A');
  await t.ctx.services.sync.syncMessages({ trigger: 'admin' });
  const cookie = await signIn(t, 'ops@example.com', { firstName: 'Ops', lastName: 'Team' });
  await sink.waitFor('ops@example.com');
  const channel = (
    await request(t.app)
      .post('/api/alert-channels')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ kind: 'webhook', name: 'SIEM', url: `${hook.url}/radar` })
  ).body;
  const saved = await request(t.app)
    .post('/api/saved-searches')
    .set('Cookie', cookie)
    .set('Sec-Fetch-Site', 'same-origin')
    .send({ name: 'Launched here', query: { sources: ['messages'] }, alertOn: ['reached_tenant'], channelIds: [channel.id] });
  expect(saved.status).toBe(201);
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await sink.close();
  await hook.close();
});

it('alerts the post that reached the tenant, with the platforms, and nothing else', async () => {
  t.clock.set('2026-07-31T12:00:00Z');
  server.setMessages('2026B');
  expect((await t.ctx.services.sync.syncMessages({ trigger: 'admin' })).run.changedItems).toBe(2);
  expect(await t.ctx.services.alerts.deliverNow()).toMatchObject({ sent: 1, failed: 0 });
  expect(hook.requests).toHaveLength(1);
  const payload = alertWebhookPayload.parse(JSON.parse(hook.requests[0]!.body));
  const items = payload.sections.flatMap((s) => s.items);
  expect(items.map((i) => [i.externalId, i.change])).toEqual([['MC910002', 'reached_tenant']]);
  expect(items[0]!.changes[0]).toBe('Reached your tenant: Web');
});
