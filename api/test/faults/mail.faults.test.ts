import { describe, expect, it } from '@jest/globals';
import { deliverMailEveryMs } from '../../src/jobs/mail-delivery.job.js';
import { freePort } from '../../src/lib/free-port.js';
import { createTestDb } from '../db.js';
import { startSmtpSink } from '../smtp-sink.js';
import { cleanupAfterAll, eventually, startApi } from './api-process.js';

/** The SMTP server is down when mail is queued and comes back later: nothing is lost, nothing is sent twice. */
const cleanup = cleanupAfterAll();

describe('SMTP down, then up', () => {
  it('keeps every mail while the server is down and delivers each exactly once when it is back', async () => {
    const database = await createTestDb();
    cleanup(() => database.close());
    const smtpPort = await freePort();
    const api = await startApi({
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_RETRY_BASE_MS: '500',
      // No feed in this test; the syncs fail quietly in the background.
      ROADMAP_V2_URL: 'http://127.0.0.1:9/v2',
      ROADMAP_FEED_URL: 'http://127.0.0.1:9/roadmap',
      ROADMAP_RSS_URL: 'off',
      FEED_RETRIES: '0',
    });
    cleanup(() => api.stop('SIGKILL'));

    const addresses = ['ann@example.com', 'bob@example.com', 'cyd@example.com'];
    for (const email of addresses) {
      const res = await fetch(`${api.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Fault', lastName: 'Test', email }),
      });
      expect(res.status).toBe(200);
    }
    // Each code was tried at once on the interactive lane and refused: kept, with a retry scheduled.
    await eventually(
      async () => (await database.pool.query(`select 1 from mail_outbox where status = 'pending' and attempts >= 1`)).rowCount === 3,
      20_000,
      'three refused sends',
    );
    expect((await database.pool.query(`select last_error from mail_outbox limit 1`)).rows[0].last_error).toMatch(/ECONNREFUSED/);

    const sink = await startSmtpSink({ port: smtpPort });
    cleanup(() => sink.close());
    // The deliver-mail job (every second here: as often as MAIL_RETRY_BASE_MS) retries them.
    for (const email of addresses) await sink.waitFor(email, 40_000);
    await eventually(async () => (await database.pool.query(`select 1 from mail_outbox where status = 'sent'`)).rowCount === 3, 20_000, 'all recorded as sent');

    // Three more runs of the deliver-mail job (every second here: deliverMailEveryMs): nothing is sent again. Each run
    // it finishes moves its row's last_finished_at (Agenda's table); on a loaded machine three runs can take longer
    // than three intervals, so the runs are counted, not the seconds.
    const finishedAt = async () =>
      (await database.pool.query<{ at: string | null }>(`select last_finished_at::text as at from agenda_jobs where name = 'deliver-mail'`)).rows[0]?.at;
    const runs = new Set([await finishedAt()]);
    await eventually(async () => runs.add(await finishedAt()).size > 3, 30 * deliverMailEveryMs(500), 'three more runs of the deliver-mail job');
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual(addresses);
    expect(new Set(sink.messages.map((m) => m.parsed.messageId)).size).toBe(3);

    const stopping = Date.now();
    expect((await api.stop('SIGTERM')).code).toBe(0);
    expect(api.errorLogs(stopping)).toEqual([]);
  });
});
