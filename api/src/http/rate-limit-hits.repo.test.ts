import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../app.js';
import { createTestContext, type TestContext } from '../../test/context.js';
import { createUser, sessionCookieFor } from '../../test/factories.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { SEND_TESTS_PER_HOUR } from '../features/alerts/channels.endpoints.js';
import { PASSKEY_SIGN_INS_PER_ADDRESS, REGISTRATION_OPTIONS_PER_USER } from '../features/passkeys/passkeys.endpoints.js';
import { PostgresRateLimitStore, sweepRateLimitHits } from './rate-limit-hits.repo.js';

/**
 * Two app instances on one database stand for two api processes (on two machines): each builds its own limiters, so a
 * limit that holds across them is counted in PostgreSQL, not in a process's memory.
 */
let t: TestContext;
let second: Express;
beforeEach(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
  second = createApp(t.ctx);
});
afterEach(async () => {
  t.ctx.services.mail.close();
  await t.close();
});

const apps = () => [t.app, second];
const sameSite = (r: request.Test) => r.set('Sec-Fetch-Site', 'same-origin');

describe('Limits shared by every api process', () => {
  it(`counts passkey sign-in options from one address across processes (${PASSKEY_SIGN_INS_PER_ADDRESS} in all)`, async () => {
    for (let i = 0; i < PASSKEY_SIGN_INS_PER_ADDRESS; i++) {
      const res = await sameSite(request(apps()[i % 2]!).post('/api/auth/passkeys/sign-in-options'));
      expect(res.status).toBe(200);
    }
    for (const app of apps()) {
      const over = await sameSite(request(app).post('/api/auth/passkeys/sign-in-options'));
      expect(over.status).toBe(429);
      expect(over.body.error.message).toMatch(/Too many passkey sign-ins/);
    }
  });

  it(`counts one user's registration options across processes (${REGISTRATION_OPTIONS_PER_USER} in all)`, async () => {
    const cookie = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'keys@example.com' })).id);
    for (let i = 0; i < REGISTRATION_OPTIONS_PER_USER; i++) {
      const res = await sameSite(
        request(apps()[i % 2]!)
          .post('/api/auth/passkeys/registration-options')
          .set('Cookie', cookie),
      );
      expect(res.status).toBe(200);
    }
    const over = await sameSite(request(second).post('/api/auth/passkeys/registration-options').set('Cookie', cookie));
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/Too many passkey registrations/);
  });

  describe('Send test', () => {
    let receiver: WebhookReceiver;
    beforeEach(async () => {
      receiver = await startWebhookReceiver();
    });
    afterEach(async () => {
      await receiver.close();
    });

    it(`allows a user ${SEND_TESTS_PER_HOUR} tests an hour across processes`, async () => {
      const cookie = await sessionCookieFor(t.ctx.db, (await createUser(t.ctx.db, { email: 'tester@example.com' })).id);
      const channel = (
        await sameSite(request(t.app).post('/api/alert-channels').set('Cookie', cookie)).send({ kind: 'webhook', name: 'Hook', url: `${receiver.url}/hook` })
      ).body as { id: number };
      for (let i = 0; i < SEND_TESTS_PER_HOUR; i++) {
        const res = await sameSite(
          request(apps()[i % 2]!)
            .post(`/api/alert-channels/${channel.id}/test`)
            .set('Cookie', cookie),
        );
        expect(res.status).toBe(200);
      }
      for (const app of apps()) {
        const over = await sameSite(request(app).post(`/api/alert-channels/${channel.id}/test`).set('Cookie', cookie));
        expect(over.status).toBe(429);
        expect(over.body.error.message).toMatch(/test messages this hour/);
      }
    });
  });
});

describe('PostgresRateLimitStore', () => {
  const store = (name: string, windowMs: number) => {
    const s = new PostgresRateLimitStore(t.ctx.db, name);
    s.init({ windowMs } as Parameters<PostgresRateLimitStore['init']>[0]);
    return s;
  };

  it('counts per limiter and key, and starts a new window once the last one is over', async () => {
    const a = store('a', 60_000);
    expect((await a.increment('k')).totalHits).toBe(1);
    expect((await a.increment('k')).totalHits).toBe(2);
    expect((await a.increment('other')).totalHits).toBe(1);
    expect((await store('b', 60_000).increment('k')).totalHits).toBe(1);
    await a.decrement('k');
    expect((await a.get('k'))?.totalHits).toBe(1);

    await t.ctx.db.execute(sql`UPDATE rate_limit_hits SET resets_at = now() - interval '1 second' WHERE limiter = 'a' AND key = 'k'`);
    expect(await a.get('k')).toBeUndefined();
    const fresh = await a.increment('k');
    expect(fresh.totalHits).toBe(1);
    expect(fresh.resetTime!.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('counts hits from many processes at once without losing one', async () => {
    const stores = [store('race', 60_000), store('race', 60_000), store('race', 60_000)];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]!.increment('same')));
    expect(results.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('sweeps the counts whose window is over, and only those', async () => {
    await store('live', 60_000).increment('k');
    await store('old', 60_000).increment('k');
    await t.ctx.db.execute(sql`UPDATE rate_limit_hits SET resets_at = now() - interval '1 minute' WHERE limiter = 'old'`);
    expect(await sweepRateLimitHits(t.ctx.db)).toBe(1);
    const { rows } = await t.ctx.db.execute<{ limiter: string }>(sql`SELECT limiter FROM rate_limit_hits`);
    expect(rows.map((r) => r.limiter)).toEqual(['live']);
  });
});
