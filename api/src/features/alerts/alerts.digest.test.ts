import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { alertWebhookPayload } from '@radar/contracts';
import { signIn } from '../../../test/auth-helpers.js';
import type { TestContext } from '../../../test/context.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import type { ReplayServer } from '../../../test/replay-server.js';
import { T_A, T_B } from '../../../test/sync-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { SAVED_SEARCH_DIGESTS_JOB } from '../../jobs/alerts.job.js';

/**
 * Daily and weekly digests at fixed clocks: due at the search's hour in its own time zone, covering the period since
 * the previous slot, sent once even when two runs (two job processes) overlap, nothing for a period without matches.
 * Roadmap A (2026-01-31) → B (2026-02-07 00:40 UTC): 500002 becomes Rolling out. 2026-02-07 is a Saturday.
 */
let server: ReplayServer;
let t: TestContext;
let receiver: WebhookReceiver;
let cookie: string;

const payloads = () => receiver.requests.map((r) => alertWebhookPayload.parse(JSON.parse(r.body)));

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ({ t, server } = await createReplayTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: T_A }));
  server.setRoadmap('A');
  await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' });
  t.clock.set('2026-02-06T10:00:00Z');
  cookie = await signIn(t, 'digest@example.com');
  const hook = (
    await request(t.app)
      .post('/api/alert-channels')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ kind: 'webhook', name: 'Hook', url: `${receiver.url}/d` })
  ).body;
  const save = (body: object) =>
    request(t.app)
      .post('/api/saved-searches')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ alertOn: ['changed'], channelIds: [hook.id], ...body });
  expect(
    (await save({ name: 'Daily rolling out', query: { roadmapStatuses: ['Rolling out'] }, schedule: 'daily', hour: 8, timeZone: 'Europe/Berlin' })).status,
  ).toBe(201);
  expect(
    (
      await save({
        name: 'Weekly rolling out',
        query: { roadmapStatuses: ['Rolling out'] },
        schedule: 'weekly',
        weekday: 6,
        hour: 8,
        timeZone: 'Europe/Berlin',
      })
    ).status,
  ).toBe(201);
  expect(
    (await save({ name: 'Daily Planner', query: { search: 'Planner' }, schedule: 'daily', hour: 8, timeZone: 'Europe/Berlin', alertOn: ['new'] })).status,
  ).toBe(201);
  server.setRoadmap('B');
  t.clock.set(T_B);
  await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' });
});
afterAll(async () => {
  await t.close();
  await server.close();
  await receiver.close();
});

describe('digests', () => {
  it('an instant sync sends digest searches nothing', async () => {
    expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('nothing is due before 08:00 in Berlin (07:00 UTC)', async () => {
    expect(await t.ctx.services.alerts.runDigests(new Date('2026-02-07T06:59:59Z'))).toEqual({ due: 0, messages: 0 });
  });

  it('at 08:00 Berlin each search gets one digest of the day; overlapping runs send it once', async () => {
    const now = new Date('2026-02-07T07:00:00Z');
    t.clock.set(now);
    const [a, b] = await Promise.all([t.ctx.services.alerts.runDigests(now), t.ctx.services.alerts.runDigests(now)]);
    expect(a.messages + b.messages).toBe(2);
    expect(await t.ctx.services.alerts.runDigests(new Date('2026-02-07T07:30:00Z'))).toEqual({ due: 0, messages: 0 });
    expect(await t.ctx.services.alerts.deliverNow()).toMatchObject({ sent: 2 });
    const got = payloads().sort((x, y) => x.trigger.localeCompare(y.trigger));
    expect(got.map((p) => [p.trigger, p.sections[0]!.savedSearch.name])).toEqual([
      ['daily', 'Daily rolling out'],
      ['weekly', 'Weekly rolling out'],
    ]);
    expect(got[0]!.window).toEqual({ from: '2026-02-06T07:00:00.000Z', to: '2026-02-07T07:00:00.000Z' });
    expect(got[1]!.window).toEqual({ from: '2026-01-31T07:00:00.000Z', to: '2026-02-07T07:00:00.000Z' });
    expect(got[0]!.sections[0]!.items.map((i) => i.externalId)).toEqual(['500002']);
    // "Daily Planner" alerts on new items only; Planner's item only changed: its slot passes without a message.
    const planner = (await request(t.app).get('/api/saved-searches').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin')).body.find(
      (s: { name: string }) => s.name === 'Daily Planner',
    );
    expect(planner.lastDigestAt).toBe('2026-02-07T07:00:00.000Z');
  });

  it('the next day has nothing new: the slot is claimed and no message is sent', async () => {
    receiver.reset();
    expect(await t.ctx.services.alerts.runDigests(new Date('2026-02-08T07:00:00Z'))).toEqual({ due: 2, messages: 0 });
    expect(receiver.requests).toHaveLength(0);
  });

  it('runs as an Agenda job', async () => {
    const runner = createTestJobRunner(t);
    try {
      await runner.start();
      expect(Object.keys(runner.agenda.definitions)).toEqual(expect.arrayContaining(['deliver-alerts', 'saved-search-digests', 'alert-sweep']));
      t.clock.set('2026-02-09T07:00:00Z');
      const lastDigests = async () =>
        (await t.database.pool.query<{ last_digest_at: Date }>(`select last_digest_at from saved_searches where schedule = 'daily' order by id`)).rows.map(
          (r) => r.last_digest_at.toISOString(),
        );
      const expected = ['2026-02-09T07:00:00.000Z', '2026-02-09T07:00:00.000Z'];
      await runner.agenda.now(SAVED_SEARCH_DIGESTS_JOB);
      // Wait for the run asked for: a run that began before the clock moved (start() schedules one) may complete
      // first. The listener is in place before each look, so no completion is missed.
      for (;;) {
        const next = new Promise((resolve) => runner.agenda.once(`complete:${SAVED_SEARCH_DIGESTS_JOB}`, resolve));
        if ((await lastDigests()).join() === expected.join()) break;
        await next;
      }
      expect(await lastDigests()).toEqual(expected);
    } finally {
      await runner.stop();
    }
  });
});
