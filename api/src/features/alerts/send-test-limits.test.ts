import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, sessionCookieFor } from '../../../test/factories.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { SEND_TESTS_PER_HOUR } from './channels.endpoints.js';

let t: TestContext;
let receiver: WebhookReceiver;
let cookie: string;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
  cookie = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'tester@example.com' })).id);
});
afterEach(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await receiver.close();
});

const post = (path: string, body?: object) => request(t.app).post(path).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send(body);

describe('Send test of an alert channel', () => {
  it('runs one test of a channel at a time', async () => {
    const channel = (await post('/api/alert-channels', { kind: 'webhook', name: 'Hook', url: `${receiver.url}/hook` })).body as { id: number };
    receiver.hang();
    const first = post(`/api/alert-channels/${channel.id}/test`);
    const firstDone = first.then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    const second = await post(`/api/alert-channels/${channel.id}/test`);
    expect(second.status).toBe(409);
    expect(second.body.error.message).toMatch(/already running/);
    receiver.release();
    expect((await firstDone).body.success).toBe(true);
    expect((await post(`/api/alert-channels/${channel.id}/test`)).status).toBe(200);
  });

  it(`allows a user ${SEND_TESTS_PER_HOUR} tests an hour across their channels`, async () => {
    const channel = (await post('/api/alert-channels', { kind: 'webhook', name: 'Hook', url: `${receiver.url}/hook` })).body as { id: number };
    for (let i = 0; i < SEND_TESTS_PER_HOUR; i++) expect((await post(`/api/alert-channels/${channel.id}/test`)).status).toBe(200);
    const over = await post(`/api/alert-channels/${channel.id}/test`);
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/test messages this hour/);
  });
});
