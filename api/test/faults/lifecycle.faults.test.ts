import { describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import { connectDatabase } from '../../src/db/client.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { createTestDb } from '../db.js';
import { startReplayServer } from '../replay-server.js';
import { startWebhookReceiver } from '../webhook-receiver.js';
import { cleanupAfterAll, eventually, startApi, tempDataDir, type ApiProcess } from './api-process.js';
import { adminCookie } from './fault-fixtures.js';

/**
 * Process lifecycle with real signals: SIGTERM while a sync runs (on the embedded PostgreSQL, whose own exit hook must
 * not stop the database under the running sync), while a feed or an alert webhook hangs, and kill -9 in the middle of
 * a sync's transaction.
 */
const cleanup = cleanupAfterAll();

describe('SIGTERM during a sync, on the embedded PostgreSQL', () => {
  it('finishes the sync, stops Agenda, the pool and then PostgreSQL, and exits 0 without error logs', async () => {
    const server = await startReplayServer();
    cleanup(() => server.close());
    const dataDir = tempDataDir('sigterm');
    cleanup(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // The first sync's feed takes 3 s to answer: SIGTERM arrives while it is running.
    server.fail({ target: 'v2', kind: 'slow', delayMs: 3000, times: 1 });
    const api = await startApi(
      { DATA_DIR: dataDir, ROADMAP_V2_URL: server.v2Url, ROADMAP_FEED_URL: server.roadmapUrl, ROADMAP_RSS_URL: server.rssUrl },
      { label: 'embedded' },
    );
    cleanup(() => api.stop('SIGKILL'));
    await eventually(async () => server.requests.includes('GET /v2'), 30_000, 'the start-up sync fetching');
    const since = Date.now();
    api.child.kill('SIGTERM');
    const { code } = await api.exited;
    expect(code).toBe(0);
    expect(api.errorLogs(since)).toEqual([]);
    const messages = api.logsSince(since).map((l) => l.msg);
    expect(messages.indexOf('Roadmap sync finished')).toBeGreaterThan(messages.findIndex((m) => m.startsWith('shutting down')));
    expect(messages.at(-1)).toBe('stopped');
    // PostgreSQL was shut down cleanly by us (no server left running, no stale pid file).
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // The finished sync is in the data: reopen the same data directory.
    const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), persistent: true });
    try {
      const db = connectDatabase(pg.url('radar'), undefined, { max: 1 });
      const { rows } = await db.db.execute<{ status: string; n: number }>(sql`
        select (select status from sync_history where source = 'roadmap' order by id limit 1) as status,
               (select count(*)::int from items where source = 'roadmap') as n`);
      expect(rows[0]).toEqual({ status: 'success', n: 12 });
      await db.close();
    } finally {
      await pg.stop();
    }
  });
});

/**
 * SIGTERM while something hangs: the process says it used up its budget, exits 0 and logs no error. Exit code 0
 * without an error is the proof that it left by its own path and not by main.ts's hard exit (15 s past the budget,
 * code 1, "shutdown did not finish"): a wall-clock bound would say the same on a quiet machine and fail on a loaded one.
 */
async function expectExitAfterBudget(api: ApiProcess): Promise<void> {
  const since = Date.now();
  const { code } = await api.stop('SIGTERM');
  expect(code).toBe(0);
  expect(api.logsSince(since).some((l) => l.level === 40 && l.msg.startsWith('shutdown budget used up'))).toBe(true);
  expect(api.errorLogs(since)).toEqual([]);
}

describe('SIGTERM while a feed hangs', () => {
  it('waits SHUTDOWN_TIMEOUT_MS, then aborts the fetch (run interrupted, nothing applied) and still exits 0', async () => {
    const server = await startReplayServer();
    cleanup(() => server.close());
    const database = await createTestDb();
    cleanup(() => database.close());
    server.fail({ target: 'v2', kind: 'hang' });
    const api = await startApi({
      DATABASE_URL: database.url,
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      ROADMAP_RSS_URL: server.rssUrl,
      FEED_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '2000',
    });
    cleanup(() => api.stop('SIGKILL'));
    await eventually(async () => server.requests.includes('GET /v2'), 30_000, 'the start-up sync fetching');
    await expectExitAfterBudget(api);
    const { rows } = await database.pool.query(`select status, error_message from sync_history where source = 'roadmap'`);
    expect(rows).toEqual([{ status: 'interrupted', error_message: 'interrupted: the process shut down before the feed answered; nothing was changed' }]);
    expect((await database.pool.query('select count(*)::int as n from items')).rows[0].n).toBe(0);
  });
});

describe('SIGTERM while an alert webhook hangs', () => {
  it("cuts the delivery job's request after SHUTDOWN_TIMEOUT_MS, records it for a retry and exits 0", async () => {
    const receiver = await startWebhookReceiver();
    cleanup(() => receiver.close());
    receiver.hang();
    cleanup(() => receiver.release());
    const server = await startReplayServer();
    cleanup(() => server.close());
    const database = await createTestDb();
    cleanup(() => database.close());
    const api = await startApi({
      DATABASE_URL: database.url,
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      ROADMAP_RSS_URL: server.rssUrl,
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      WEBHOOK_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '2000',
    });
    cleanup(() => api.stop('SIGKILL'));
    const cookie = await adminCookie(database.db);
    const added = await fetch(`${api.url}/api/alert-channels`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: api.url },
      body: JSON.stringify({ kind: 'webhook', name: 'SIEM', url: `${receiver.url}/radar` }),
    });
    expect(added.status).toBe(201);
    const channel = (await added.json()) as { id: number };
    const { rows } = await database.pool.query(
      `insert into alert_deliveries (public_id, channel_id, trigger, body) values (gen_random_uuid()::text, $1, 'instant', '{"type":"radar.alert"}') returning id`,
      [channel.id],
    );
    // The deliver-alerts job (every 10 s) picks it up and the receiver never answers.
    await eventually(async () => receiver.requests.length === 1, 30_000, 'the deliver-alerts job posting');
    await expectExitAfterBudget(api);
    const row = (await database.pool.query('select status, attempts, last_error from alert_deliveries where id = $1', [rows[0].id])).rows[0];
    expect(row).toEqual({ status: 'pending', attempts: 1, last_error: 'aborted: shutting down' });
    const attempts = await database.pool.query('select outcome, error from alert_delivery_attempts where delivery_id = $1', [rows[0].id]);
    expect(attempts.rows).toEqual([{ outcome: 'retrying', error: 'aborted: shutting down' }]);
  });
});

describe('kill -9 in the middle of a sync', () => {
  it('leaves the previous state intact; the next start marks the run interrupted', async () => {
    const server = await startReplayServer();
    cleanup(() => server.close());
    const database = await createTestDb();
    cleanup(() => database.close());
    const env = {
      DATABASE_URL: database.url,
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      ROADMAP_RSS_URL: server.rssUrl,
      SYNC_MAX_REMOVED_PERCENT: '100',
    };
    const first = await startApi(env, { label: 'first' });
    cleanup(() => first.stop('SIGKILL'));
    const state = async () =>
      (
        await database.db.execute<{ items: number; removed: number; history: number }>(sql`
          select (select count(*)::int from items) as items, (select count(*)::int from items where is_removed) as removed,
                 (select count(*)::int from item_history) as history`)
      ).rows[0]!;
    await eventually(async () => (await state()).items === 12, 30_000, 'snapshot A applied at start');
    const before = await state();

    // Hold a lock the sync's history insert needs: its transaction is then open, mid-write, when the process dies.
    const blocker = await database.pool.connect();
    // Should the test fail before the COMMIT below, the held connection must not keep the database's pool from
    // ending: close() would wait for it until the file's hook timeout (240 s) and hide the failure behind it.
    let blocking = true;
    cleanup(() => blocking && blocker.release(true));
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE item_history IN SHARE MODE');
    server.setRoadmap('B');
    const cookie = await adminCookie(database.db);
    // The trigger runs the sync in the request. While the start-up sync is still finishing (its items are in, its
    // follow-ups not yet: a loaded machine) it answers 409 at once, and is asked again.
    const trigger = () =>
      fetch(`${first.url}/api/roadmap/sync`, { method: 'POST', headers: { cookie, origin: first.url } }).then(
        (res) => res.status,
        () => 0,
      );
    let answered = trigger();
    await eventually(
      async () => {
        const blocked = await database.pool.query(
          `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and backend_xid is not null`,
        );
        if (blocked.rowCount === 1) return true;
        if ((await Promise.race([answered, Promise.resolve(null)])) === 409) answered = trigger();
        return false;
      },
      60_000,
      'the sync writing, blocked on item_history',
    );
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await blocker.query('COMMIT');
    blocker.release();
    blocking = false;
    // The dead process's sessions end (their transaction rolled back) once PostgreSQL notices the closed sockets.
    await eventually(
      async () => (await database.pool.query(`select 1 from pg_stat_activity where datname = current_database() and backend_xid is not null`)).rowCount === 0,
      30_000,
      'the orphaned transaction rolled back',
    );

    expect(await state()).toEqual(before);
    const running = await database.pool.query(`select id from sync_history where status = 'running'`);
    expect(running.rowCount).toBe(1);

    const second = await startApi({ ...env, JOBS_ENABLED: 'false' }, { label: 'second' });
    cleanup(() => second.stop('SIGKILL'));
    await second.waitForLog((l) => l.msg === 'sync runs left running by a stopped process were marked interrupted', 30_000);
    const run = await database.pool.query(`select status, error_message from sync_history where id = $1`, [running.rows[0].id]);
    expect(run.rows[0]).toEqual({
      status: 'interrupted',
      error_message: 'interrupted: the process stopped before the sync finished; nothing of it was applied',
    });
    expect(await state()).toEqual(before);
    expect((await second.stop('SIGTERM')).code).toBe(0);
  });
});
