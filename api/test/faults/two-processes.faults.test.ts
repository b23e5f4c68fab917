import { describe, expect, it } from '@jest/globals';
import { createUser } from '../factories.js';
import { createTestDb } from '../db.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT } from '../replay-server.js';
import { startSmtpSink } from '../smtp-sink.js';
import { digestSubscribers, notificationSubscriptions } from '../../src/db/schema/index.js';
import { cleanupAfterAll, eventually, startApi } from './api-process.js';

/**
 * Two api processes on one PostgreSQL, both running jobs (JOBS_ENABLED on both, as two replicas would): each job
 * occurrence runs once, syncs of a source never overlap, and nobody gets a mail twice.
 */
const cleanup = cleanupAfterAll();

const SYNC_EVERY_MS = 4000;

describe('two api processes on one database', () => {
  it('run jobs once, never overlap syncs and send no mail twice', async () => {
    const database = await createTestDb();
    cleanup(() => database.close());
    const server = await startReplayServer();
    cleanup(() => server.close());
    const sink = await startSmtpSink();
    cleanup(() => sink.close());

    const readers = ['r1@example.com', 'r2@example.com', 'r3@example.com'];
    await database.db.insert(digestSubscribers).values(readers.map((email) => ({ email, origin: 'signup', confirmedAt: new Date('2026-01-01T00:00:00Z') })));
    const alice = await createUser(database.db, { email: 'alice@example.com' });
    await database.db
      .insert(notificationSubscriptions)
      .values({ userId: alice.id, itemType: 'roadmap', itemExternalId: '500002', changeTypes: ['changed', 'status_change'] });

    const env = {
      DATABASE_URL: database.url,
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      ROADMAP_RSS_URL: server.rssUrl,
      GRAPH_AUTHORITY_URL: server.url,
      GRAPH_API_URL: server.graphApiUrl,
      GRAPH_TENANT_ID: TENANT,
      GRAPH_CLIENT_ID: CLIENT_ID,
      GRAPH_CLIENT_SECRET: CLIENT_SECRET,
      SMTP_URL: sink.url,
      ROADMAP_SYNC_INTERVAL_MS: String(SYNC_EVERY_MS),
      MESSAGE_SYNC_INTERVAL_MS: String(SYNC_EVERY_MS),
      // Sunday 00:00 is always past within the week: the digest catch-up sends at start, from one process.
      DIGEST_SEND_HOUR: '0',
      // The small fixtures remove 2 of 12 roadmap items between snapshots.
      SYNC_MAX_REMOVED_PERCENT: '100',
    };
    const [a, b] = await Promise.all([startApi(env, { label: 'A' }), startApi(env, { label: 'B' })]);
    cleanup(() => a.stop('SIGKILL'));
    cleanup(() => b.stop('SIGKILL'));

    const count = async (query: string) => Number((await database.pool.query(query)).rows[0].n);
    await eventually(async () => (await count(`select count(*) as n from items where source = 'roadmap'`)) === 12, 60_000, 'the first roadmap sync');
    // Upstream changes 500002 (In development → Rolling out): alice must get one mail, from whichever process syncs.
    server.setRoadmap('B');
    const aliceMail = await sink.waitFor('alice@example.com', 60_000);
    expect(aliceMail.subject).toMatch(/^Status change: .* is now Rolling out$/);
    for (const reader of readers) await sink.waitFor(reader, 60_000);
    // Let both processes go through a few more scheduled runs: three of each source, counted (on a loaded machine
    // three intervals can hold fewer).
    const since = new Date();
    const scheduledSince = (source: string) =>
      count(
        `select count(*) as n from sync_history where source = '${source}' and trigger = 'schedule' and finished_at is not null and started_at > '${since.toISOString()}'`,
      );
    await eventually(
      async () => (await scheduledSince('roadmap')) >= 3 && (await scheduledSince('message_center')) >= 3,
      120_000,
      'three more scheduled runs of each source',
    );

    // Syncs go on every few seconds: the runs looked at are those begun before this mark, once each has ended (one
    // left running, by an overlap or a lost process, never ends and fails here).
    const mark = new Date().toISOString();
    await eventually(
      async () => (await count(`select count(*) as n from sync_history where status = 'running' and started_at < '${mark}'`)) === 0,
      60_000,
      'every run begun so far ended',
    );
    const runs = (
      await database.pool.query<{ source: string; trigger: string; started_at: Date; finished_at: Date | null; status: string }>(
        `select source, trigger, started_at, finished_at, status from sync_history where started_at < $1 order by source, started_at`,
        [mark],
      )
    ).rows;
    for (const source of ['roadmap', 'message_center']) {
      const mine = runs.filter((r) => r.source === source);
      expect(mine.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < mine.length; i++) {
        // Never overlapping: each run finished before the next one of the source started.
        expect(mine[i - 1]!.finished_at!.getTime()).toBeLessThanOrEqual(mine[i]!.started_at.getTime());
      }
      // Each scheduled occurrence ran once: consecutive scheduled runs are (about) an interval apart, not doubled.
      const scheduled = mine.filter((r) => r.trigger === 'schedule');
      for (let i = 1; i < scheduled.length; i++) {
        expect(scheduled[i]!.started_at.getTime() - scheduled[i - 1]!.started_at.getTime()).toBeGreaterThan(SYNC_EVERY_MS / 2);
      }
    }
    expect(runs.filter((r) => r.status === 'running')).toEqual([]);

    const to = sink.messages.map((m) => m.to[0]!);
    expect(to.filter((x) => x === 'alice@example.com')).toHaveLength(1);
    for (const reader of readers) expect(to.filter((x) => x === reader)).toHaveLength(1);
    expect(new Set(sink.messages.map((m) => m.parsed.messageId)).size).toBe(sink.messages.length);
    expect(await count(`select count(*) as n from digest_deliveries`)).toBe(readers.length);
    expect(await count(`select count(*) as n from mail_outbox where status <> 'sent'`)).toBe(0);
    // Both processes were working: each logged job activity of its own.
    expect(a.logs.some((l) => l.msg === 'jobs started') && b.logs.some((l) => l.msg === 'jobs started')).toBe(true);

    const [ea, eb] = await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
    expect([ea.code, eb.code]).toEqual([0, 0]);
    // Nothing in this whole run, start to stop, was an error.
    expect([...a.errorLogs(), ...b.errorLogs()]).toEqual([]);
  });
});
