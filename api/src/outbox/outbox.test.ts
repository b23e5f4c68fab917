import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { createTestDb, type TestDatabase } from '../../test/db.js';
import { trackers, mailOutbox, trackerAttempts } from '../db/schema/index.js';
import {
  backoffMs,
  claimDue,
  DEFAULT_RETRY_POLICY,
  purgeFinished,
  purgeLog,
  recordAttempt,
  recordFailure,
  recordSuccess,
  releaseClaims,
  retryAfterMs,
  settle,
  type LogEntry,
} from './index.js';

/** The shared outbox on a real database, with the mail outbox and a tracker tracker as its tables. */
let t: TestDatabase;
const NOW = new Date('2026-03-02T10:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number) => new Date(NOW.getTime() + ms);

beforeAll(async () => {
  t = await createTestDb({ max: 6 });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.execute(sql`TRUNCATE mail_outbox, integrations, tracker_attempts RESTART IDENTITY CASCADE`);
});

async function queueMails(n: number, values: Partial<typeof mailOutbox.$inferInsert> = {}): Promise<number[]> {
  const rows = await t.db
    .insert(mailOutbox)
    .values(
      Array.from({ length: n }, (_, i) => ({
        kind: 'test',
        toAddress: `u${i}@example.com`,
        subject: 's',
        html: 'h',
        text: 't',
        nextAttemptAt: NOW,
        ...values,
      })),
    )
    .returning({ id: mailOutbox.id });
  return rows.map((r) => r.id);
}

async function newTracker(): Promise<number> {
  const [row] = await t.db.insert(trackers).values({ kind: 'jira', name: 'Jira', settings: {} }).returning({ id: trackers.id });
  return row!.id;
}

const claim = (limit: number, extra: Partial<Parameters<typeof claimDue>[2]> = {}, db = t.db as Parameters<typeof claimDue>[0]) =>
  claimDue(db, mailOutbox, { now: NOW, leaseMs: 10 * MIN, limit, ...extra });

describe('the retry schedule', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([MIN, 2 * MIN, 4 * MIN, 8 * MIN]);
    expect(backoffMs(0)).toBe(MIN);
    expect(backoffMs(3, { baseMs: 500, maxMs: HOUR })).toBe(2000);
    expect(backoffMs(20)).toBe(6 * HOUR);
    expect(backoffMs(20, { baseMs: MIN, maxMs: 2 * HOUR })).toBe(2 * HOUR);
  });

  it('honours a Retry-After up to its cap, and falls back on the backoff without one', () => {
    expect(retryAfterMs(120_000, 1)).toBe(120_000);
    expect(retryAfterMs(24 * HOUR, 1)).toBe(HOUR);
    expect(retryAfterMs(null, 2)).toBe(2 * MIN);
    expect(retryAfterMs(null, 12)).toBe(HOUR);
    expect(retryAfterMs(5 * HOUR, 1, { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 2 * HOUR })).toBe(2 * HOUR);
  });

  it('settles a try: sent, retried at its time, failed for good', () => {
    expect(settle({ outcome: 'sent', error: null }, { attempts: 1 }, NOW)).toEqual({ outcome: 'sent', set: { status: 'sent', sentAt: NOW, lastError: null } });
    expect(settle({ outcome: 'retrying', error: 'HTTP 503' }, { attempts: 3 }, NOW)).toEqual({
      outcome: 'retrying',
      set: { status: 'pending', lastError: 'HTTP 503', nextAttemptAt: at(4 * MIN) },
    });
    expect(settle({ outcome: 'retrying', error: 'HTTP 429', retryInMs: 90_000 }, { attempts: 1 }, NOW).set).toMatchObject({ nextAttemptAt: at(90_000) });
    expect(settle({ outcome: 'retrying', error: 'HTTP 503' }, { attempts: 8 }, NOW).outcome).toBe('failed');
    expect(settle({ outcome: 'retrying', error: 'HTTP 503' }, { attempts: 1 }, NOW, DEFAULT_RETRY_POLICY, { noRetry: true }).outcome).toBe('failed');
    expect(settle({ outcome: 'failed', error: 'HTTP 400' }, { attempts: 1 }, NOW)).toEqual({
      outcome: 'failed',
      set: { status: 'failed', lastError: 'HTTP 400' },
    });
  });
});

describe('claiming due rows', () => {
  it('never gives two claimers the same row: a claim skips the rows another holds', async () => {
    await queueMails(20);
    let first: number[] = [];
    let second: number[] = [];
    await t.db.transaction(async (tx) => {
      first = (await claim(10, {}, tx)).map((r) => r.id);
      // The first claim's rows stay locked until its transaction ends; this one runs on another connection meanwhile.
      second = (await claim(15)).map((r) => r.id);
    });
    expect(first).toHaveLength(10);
    expect(second).toHaveLength(10);
    expect(first.filter((id) => second.includes(id))).toEqual([]);
  });

  it('splits the due rows among many claimers running at once, each row once', async () => {
    const ids = await queueMails(60);
    const claims = await Promise.all(Array.from({ length: 6 }, () => claim(15)));
    const claimed = claims.flat().map((r) => r.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect([...claimed].sort((a, b) => a - b)).toEqual(ids);
    const rows = await t.db.select().from(mailOutbox);
    expect(rows.every((r) => r.status === 'sending' && r.attempts === 1 && r.nextAttemptAt.getTime() === at(10 * MIN).getTime())).toBe(true);
  });

  it('leases a claimed row: due again only when the lease ends, the claim counted', async () => {
    const [id] = await queueMails(1);
    expect(await claim(5)).toHaveLength(1);
    expect(await claim(5, { now: at(9 * MIN) })).toEqual([]);
    const [again] = await claim(5, { now: at(10 * MIN) });
    expect(again).toMatchObject({ id, status: 'sending', attempts: 2 });
  });

  it('waits for next_attempt_at, unless a never-tried row is due at once', async () => {
    await queueMails(1, { nextAttemptAt: at(5 * MIN) });
    expect(await claim(5)).toEqual([]);
    expect(await claim(5, { newRowsDueAtOnce: true })).toHaveLength(1);
  });

  it('keeps to the feature’s order and conditions, only and skip ids', async () => {
    const ids = await queueMails(4);
    await t.db.update(mailOutbox).set({ priority: 0 }).where(eq(mailOutbox.id, ids[3]!));
    expect((await claim(2, { orderBy: [mailOutbox.priority, mailOutbox.id] })).map((r) => r.id)).toEqual([ids[3], ids[0]]);
    expect((await claim(5, { where: sql`${mailOutbox.id} <> ${ids[1]}` })).map((r) => r.id)).toEqual([ids[2]]);
    expect(await claim(5, { onlyIds: [ids[0]!] })).toEqual([]);
    expect((await claim(5, { skipIds: [ids[0]!, ids[2]!], now: at(HOUR) })).map((r) => r.id)).toEqual([ids[1], ids[3]]);
  });

  it('releases claims a stopping process will not try: due at once, not counted', async () => {
    const ids = await queueMails(2);
    await claim(2);
    await releaseClaims(t.db, mailOutbox, ids, NOW);
    const rows = await t.db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    expect(await claim(5)).toHaveLength(2);
  });
});

describe('pausing a destination after failures in a row', () => {
  const pause = { pauseAfter: 3, reason: 'Paused after 3 failed calls in a row' };

  it('pauses at the threshold, once, and a success ends the streak', async () => {
    const id = await newTracker();
    const streaks = [];
    for (let i = 1; i <= 4; i++) streaks.push(await recordFailure(t.db, trackers, id, { at: at(i * MIN), ...pause }));
    expect(streaks).toEqual([
      { failures: 1, pausedNow: false },
      { failures: 2, pausedNow: false },
      { failures: 3, pausedNow: true },
      { failures: 4, pausedNow: false },
    ]);
    const [row] = await t.db.select().from(trackers).where(eq(trackers.id, id));
    expect(row).toMatchObject({ paused: true, pausedAt: at(3 * MIN), pausedReason: pause.reason, consecutiveFailures: 4 });
    await recordSuccess(t.db, trackers, id);
    const [after] = await t.db.select().from(trackers).where(eq(trackers.id, id));
    expect(after).toMatchObject({ consecutiveFailures: 0, paused: true });
  });

  it('tells exactly one of two workers failing at the threshold at once', async () => {
    const id = await newTracker();
    await recordFailure(t.db, trackers, id, { at: at(MIN), ...pause });
    const both = await Promise.all([
      recordFailure(t.db, trackers, id, { at: at(2 * MIN), ...pause }),
      recordFailure(t.db, trackers, id, { at: at(2 * MIN), ...pause }),
    ]);
    expect(both.filter((s) => s.pausedNow)).toHaveLength(1);
  });
});

describe('recording a try', () => {
  it('logs it, settles the row and moves the streak in the caller’s transaction', async () => {
    const trackerId = await newTracker();
    const [id] = await queueMails(1);
    const [row] = await claim(1);
    const logged: LogEntry[] = [];
    const spec = {
      now: NOW,
      row: { table: mailOutbox, id: id!, attempts: row!.attempts },
      policy: DEFAULT_RETRY_POLICY,
      log: async (entry: LogEntry) => void logged.push(entry),
      excerptChars: 5,
      streak: { table: trackers, id: trackerId, pauseAfter: 2, reason: 'paused' },
    };
    const attempt = { outcome: 'retrying' as const, statusCode: 503, latencyMs: 12, response: 'Service Unavailable', error: 'HTTP 503' };
    const first = await t.db.transaction((tx) => recordAttempt(tx, { ...spec, attempt }));
    expect(first).toEqual({ outcome: 'retrying', streak: { failures: 1, pausedNow: false } });
    expect(logged).toEqual([{ attemptedAt: NOW, outcome: 'retrying', statusCode: 503, latencyMs: 12, responseExcerpt: 'Servi', error: 'HTTP 503' }]);
    const [pending] = await t.db.select().from(mailOutbox);
    expect(pending).toMatchObject({ status: 'pending', lastError: 'HTTP 503', nextAttemptAt: at(MIN), attempts: 1 });

    const second = await t.db.transaction((tx) => recordAttempt(tx, { ...spec, attempt, noRetry: true }));
    expect(second).toEqual({ outcome: 'failed', streak: { failures: 2, pausedNow: true } });
    expect((await t.db.select().from(mailOutbox))[0]).toMatchObject({ status: 'failed', lastError: 'HTTP 503' });

    const waited = await t.db.transaction((tx) => recordAttempt(tx, { ...spec, attempt, uncounted: true, log: null, streak: null }));
    expect(waited.outcome).toBe('retrying');
    expect((await t.db.select().from(mailOutbox))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(logged).toHaveLength(2);
    // A wait on the row's last attempt gives it up, and it keeps the attempts it had.
    const lastTry = { ...spec, row: { ...spec.row, attempts: 8 }, attempt, uncounted: true, log: null, streak: null };
    expect((await t.db.transaction((tx) => recordAttempt(tx, lastTry))).outcome).toBe('failed');
    expect((await t.db.select().from(mailOutbox))[0]).toMatchObject({ status: 'failed', attempts: 0 });

    const sent = await t.db.transaction((tx) =>
      recordAttempt(tx, { ...spec, attempt: { outcome: 'sent', statusCode: 200, latencyMs: 5, response: 'ok', error: null } }),
    );
    expect(sent).toEqual({ outcome: 'sent', streak: null });
    expect((await t.db.select().from(mailOutbox))[0]).toMatchObject({ status: 'sent', sentAt: NOW, lastError: null });
    expect((await t.db.select().from(trackers))[0]).toMatchObject({ consecutiveFailures: 0 });
  });

  it('logs a call outside the outbox as it ended', async () => {
    const logged: LogEntry[] = [];
    const recorded = await recordAttempt(t.db, {
      now: NOW,
      row: null,
      policy: DEFAULT_RETRY_POLICY,
      attempt: { outcome: 'retrying', statusCode: null, latencyMs: null, response: '', error: 'timeout' },
      log: async (entry) => void logged.push(entry),
      streak: null,
    });
    expect(recorded.outcome).toBe('retrying');
    expect(logged[0]?.outcome).toBe('retrying');
  });
});

describe('retention', () => {
  it('purges sent and failed rows past their age, never a row still waiting', async () => {
    const old = at(-31 * 24 * HOUR);
    await queueMails(1, { status: 'sent', createdAt: old });
    await queueMails(1, { status: 'failed', createdAt: old });
    const [waiting] = await queueMails(1, { status: 'pending', createdAt: old });
    const [sending] = await queueMails(1, { status: 'sending', createdAt: old });
    const [recent] = await queueMails(1, { status: 'sent', createdAt: at(-HOUR) });
    expect(await purgeFinished(t.db, mailOutbox, at(-30 * 24 * HOUR))).toBe(2);
    expect((await t.db.select({ id: mailOutbox.id }).from(mailOutbox).orderBy(mailOutbox.id)).map((r) => r.id)).toEqual([waiting, sending, recent]);
  });

  it('purges delivery-log lines past their age', async () => {
    const trackerId = await newTracker();
    const line = { trackerId, action: 'create', outcome: 'sent' };
    await t.db.insert(trackerAttempts).values([
      { ...line, attemptedAt: at(-31 * 24 * HOUR) },
      { ...line, attemptedAt: at(-HOUR) },
    ]);
    expect(await purgeLog(t.db, trackerAttempts, at(-30 * 24 * HOUR))).toBe(1);
    expect(await t.db.select().from(trackerAttempts)).toHaveLength(1);
  });
});
