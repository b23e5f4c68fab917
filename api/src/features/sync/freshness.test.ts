import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { and, desc, eq } from 'drizzle-orm';
import { mailOutbox, notificationSubscriptions, syncHistory } from '../../db/schema/index.js';
import { MESSAGE_SYNC_JOB, ROADMAP_SYNC_JOB } from '../../jobs/sync.jobs.js';
import type { TestContext } from '../../../test/context.js';
import { createUser } from '../../../test/factories.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';

/**
 * The freshness bound (a follower hears of a change within an hour), end to end with the production defaults (hourly roadmap poll, the snapshot guard at
 * 10%) and a fixed clock: the upstream changes an item at T; the next scheduled poll fetches it, the sync records it,
 * the follower's mail goes through the outbox and the deliver-mail job to a real SMTP server — by T + 1 h.
 */
const HOUR = 3_600_000;
let t: TestContext;
let server: ReplayServer;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  ({ t, server } = await createReplayTestContext({ SMTP_URL: sink.url, SYNC_MAX_REMOVED_PERCENT: '10' }, { now: '2026-02-06T21:00:00Z' }));
  const changed = JSON.parse(readFixture('roadmap-a.json')) as { id: number; status: string; modified: string }[];
  const item = changed.find((i) => i.id === 500002)!;
  item.status = 'Rolling out';
  item.modified = '2026-02-06T23:15:08';
  server.addRoadmap('CHANGED', JSON.stringify(changed, null, 2));
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await sink.close();
});

async function lastRoadmapRun(afterId: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [row] = await t.ctx.db.select().from(syncHistory).where(eq(syncHistory.source, 'roadmap')).orderBy(desc(syncHistory.id)).limit(1);
    if (row && row.id > afterId && row.status !== 'running') return row;
    if (Date.now() > deadline) throw new Error('the scheduled roadmap sync did not run');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a roadmap change reaches a follower within one hour', () => {
  it('polls hourly, conditionally, and mails the follower by T + 1 h', async () => {
    const first = await t.ctx.services.sync.syncRoadmap({ trigger: 'startup' });
    expect(first.run.status).toBe('success');
    const alice = await createUser(t.ctx.db, { email: 'alice@example.com' });
    await t.ctx.db
      .insert(notificationSubscriptions)
      .values({ userId: alice.id, itemType: 'roadmap', itemExternalId: '500002', changeTypes: ['changed', 'status_change'] });

    const runner = createTestJobRunner(t);
    await runner.start();
    try {
      // The schedule as Agenda stores it: the roadmap (and Message Center) every hour.
      for (const name of [ROADMAP_SYNC_JOB, MESSAGE_SYNC_JOB]) {
        const { jobs } = await runner.agenda.queryJobs({ name });
        expect(Number(jobs[0]!.repeatInterval)).toBe(HOUR);
      }

      // P1: a scheduled poll before the change. A 304: the run ends unchanged, nothing parsed.
      const p1 = new Date(t.clock.now().getTime() + HOUR);
      t.clock.set(p1);
      await runner.agenda.now(ROADMAP_SYNC_JOB);
      const unchanged = await lastRoadmapRun(first.run.id);
      expect(unchanged).toMatchObject({ status: 'unchanged', trigger: 'schedule', note: 'The feed answered 304 Not Modified.' });

      // T: Microsoft's nightly batch changes 500002 ten minutes after that poll.
      const T = new Date(p1.getTime() + 10 * 60_000);
      server.setRoadmap('CHANGED');

      // P2 = P1 + the repeat interval: the next scheduled poll.
      t.clock.set(new Date(p1.getTime() + HOUR));
      await runner.agenda.now(ROADMAP_SYNC_JOB);
      const applied = await lastRoadmapRun(unchanged.id);
      expect(applied).toMatchObject({ status: 'success', changedItems: 1, feedFormat: 'v2' });

      const mail = await sink.waitFor('alice@example.com', 15_000);
      expect(mail.subject).toMatch(/^Status change: .* is now Rolling out$/);
      const [row] = await t.ctx.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.kind, 'item-change'), eq(mailOutbox.toAddress, 'alice@example.com')));
      for (let i = 0; row && i < 50 && (await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, row.id)))[0]!.status !== 'sent'; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const [sent] = await t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
      expect(sent!.status).toBe('sent');
      expect(sent!.sentAt!.getTime()).toBeLessThanOrEqual(T.getTime() + HOUR);
    } finally {
      t.ctx.services.mail.setKicker(null);
      await runner.stop();
    }
  });
});
