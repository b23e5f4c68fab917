import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { signIn } from '../../../test/auth-helpers.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { eventually } from '../../../test/faults/api-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import type { DbOrTx } from '../../db/client.js';
import { testSections } from './alert-message.js';
import { enqueueAlert, newPublicId } from './alert-enqueue.js';
import { createAlertsService } from './alerts.service.js';
import { createChannelsRepo } from './channels.repo.js';

/**
 * Graceful shutdown of alert delivery (shutdown.ts calls drain(), and abortDeliveries() past SHUTDOWN_TIMEOUT_MS),
 * against a real receiver that hangs: the attempt in progress finishes and is recorded, the rest of the claimed batch
 * is released for the next process at once instead of waiting out its 5-minute lease, and a request cut at the end
 * of the budget is recorded as a network error and retried. Each test drains a service of its own.
 */
let t: TestContext;
let receiver: WebhookReceiver;
let cookie: string;
let channelId: number;

async function queue() {
  const channel = (await createChannelsRepo(t.ctx.db).byId(channelId))!;
  const m = {
    publicId: newPublicId(),
    trigger: 'instant' as const,
    createdAt: t.clock.now(),
    window: { from: null, to: t.clock.now() },
    channel: { id: channelId, name: channel.name },
    sections: testSections(t.ctx.publicUrl),
    settingsUrl: '',
  };
  return (await t.ctx.db.transaction((tx) =>
    enqueueAlert(tx as DbOrTx, { publicUrl: t.ctx.publicUrl, secret: t.ctx.secret, mail: t.ctx.services.mail }, channel, m, null),
  ))!;
}
const delivery = async (id: number) =>
  (await t.database.pool.query('select status, attempts, next_attempt_at, last_error from alert_deliveries where id = $1', [id])).rows[0];
const freshService = () => createAlertsService({ ...t.ctx, mail: t.ctx.services.mail });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true', WEBHOOK_TIMEOUT_MS: '60000' });
  cookie = await signIn(t, 'owner@example.com', { firstName: 'Olga', lastName: 'Owner' });
});
afterAll(async () => {
  receiver.release();
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
    .send({ kind: 'webhook', name: `Hook ${Date.now()}`, url: `${receiver.url}/radar` });
  channelId = res.body.id;
});

describe('alert delivery in a graceful shutdown', () => {
  it('drain waits for the attempt in progress, starts no other, and releases the rest of the batch', async () => {
    const ids = [await queue(), await queue(), await queue()];
    receiver.hang();
    const service = freshService();
    const run = service.deliverNow();
    await eventually(async () => receiver.requests.length === 1, 10_000, 'the first delivery posted');
    let drained = false;
    const drain = service.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(drained).toBe(false);
    receiver.release();
    await drain;
    expect(await run).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
    expect(await delivery(ids[0]!)).toMatchObject({ status: 'sent', attempts: 1 });
    for (const id of ids.slice(1)) {
      const row = await delivery(id);
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    }
    // A drained service starts nothing; another process (here the context's own service) sends the rest at once.
    expect(await service.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 2, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(3);
  });

  it('past the budget, abortDeliveries cuts the request waiting for an answer: logged as a network error and retried', async () => {
    const id = await queue();
    receiver.hang();
    const service = freshService();
    const run = service.deliverNow();
    await eventually(async () => receiver.requests.length === 1, 10_000, 'the delivery posted');
    const drain = service.drain();
    service.abortDeliveries();
    await drain;
    expect(await run).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const row = await delivery(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'aborted: shutting down' });
    expect(row.next_attempt_at.getTime()).toBe(t.clock.now().getTime() + 60_000);
    const log = (await request(t.app).get(`/api/alert-channels/${channelId}/deliveries`).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body;
    expect(log[0]).toMatchObject({ outcome: 'retrying', statusCode: null, error: 'aborted: shutting down' });
    receiver.release();
  });
});
