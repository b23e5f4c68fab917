import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createExportLimiter, writeWithStallGuard, type ExportOutcome } from './export-guard.js';
import { ServiceUnavailableError } from '../../lib/errors.js';

/** A request whose client never reads the answer: the socket's buffers fill and the server's writes stall. */
function stalledRequest(port: number, path: string): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}
/** Polls until `check` holds (a paused socket does not notice that the server closed it, so we look server-side). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('export limiter', () => {
  it('counts per client and in total, and releases each slot once', () => {
    const limiter = createExportLimiter({ perClient: 2, total: 3 });
    const a1 = limiter.acquire('10.0.0.1');
    limiter.acquire('10.0.0.1');
    expect(() => limiter.acquire('10.0.0.1')).toThrow('You already have 2 exports running; wait for one to finish before starting another');
    limiter.acquire('10.0.0.2', true);
    expect(() => limiter.acquire('10.0.0.3', true)).toThrow(ServiceUnavailableError);
    a1();
    a1();
    expect(limiter.running).toBe(2);
    expect(() => limiter.acquire('10.0.0.3')).not.toThrow();
  });

  it('keeps a slot guests cannot take, so a signed-in user can always start one', () => {
    const limiter = createExportLimiter({ perClient: 1, total: 3 });
    limiter.acquire('10.0.0.1');
    const second = limiter.acquire('10.0.0.2');
    expect(() => limiter.acquire('10.0.0.3')).toThrow(ServiceUnavailableError);
    limiter.acquire('10.0.0.4', true);
    expect(() => limiter.acquire('10.0.0.5', true)).toThrow(ServiceUnavailableError);
    second();
    expect(() => limiter.acquire('10.0.0.3')).not.toThrow();
  });
});

describe('stall guard', () => {
  let server: http.Server;
  let port: number;
  let outcomes: ExportOutcome[];
  let sourcesDestroyed = 0;
  beforeAll(async () => {
    outcomes = [];
    server = http.createServer((req, res) => {
      // An endless stream of 64 KB chunks: only backpressure (or the guard) stops it.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const limit = req.url === '/small' ? 8 : Infinity;
      const source = new Readable({
        read() {
          this.push(sent++ < limit ? chunk : null);
        },
        destroy(err, cb) {
          sourcesDestroyed++;
          cb(err);
        },
      });
      const cap = req.url === '/slow' ? 300 : 0;
      if (req.url === '/slow') {
        // A client that reads steadily, but a source that gives a chunk every 100 ms: only the time cap stops it.
        let n = 0;
        const slow = new Readable({
          read() {
            setTimeout(() => this.push(n++ < 100 ? chunk : null), 100);
          },
          destroy(err, cb) {
            sourcesDestroyed++;
            cb(err);
          },
        });
        void writeWithStallGuard(slow, res as Parameters<typeof writeWithStallGuard>[1], 1000, cap).then((o) => outcomes.push(o));
        return;
      }
      void writeWithStallGuard(source, res as Parameters<typeof writeWithStallGuard>[1], 1000).then((o) => outcomes.push(o));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('cuts a client that stopped reading and destroys the source', async () => {
    const socket = await stalledRequest(port, '/endless');
    await until(() => outcomes.length > 0);
    socket.destroy();
    expect(outcomes).toEqual(['stalled']);
    expect(sourcesDestroyed).toBe(1);
  });

  it('cuts a download that runs past its time cap, however steadily it is read', async () => {
    const before = sourcesDestroyed;
    await fetch(`http://127.0.0.1:${port}/slow`)
      .then((res) => res.arrayBuffer())
      .catch(() => undefined);
    await until(() => outcomes.at(-1) === 'too-long');
    expect(sourcesDestroyed).toBe(before + 1);
  });

  it('lets a reading client finish', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/small`);
    expect((await res.arrayBuffer()).byteLength).toBe(8 * 64 * 1024);
    await new Promise((r) => setTimeout(r, 50));
    expect(outcomes.at(-1)).toBe('finished');
  });
});

describe('GET /api/dashboard/export under stalled clients', () => {
  let t: TestContext;
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // The acquire timeout also bounds opening a connection (the first one to a database just cloned from the
    // template): generous enough for a busy CI machine; the list is checked by its answer, not by a time.
    t = await createTestContext(
      { EXPORT_MAX_PER_CLIENT: '1', EXPORT_MAX_CONCURRENT: '2', EXPORT_IDLE_TIMEOUT_MS: '2500' },
      { pool: { max: 6, acquireTimeoutMs: 5000 } },
    );
    // 20,000 rows with 1 KB descriptions: a CSV of some 25 MB, far more than the sockets' buffers hold.
    await t.database.pool.query(
      `INSERT INTO items (source, external_id, title, description, status, created_date, modified_date, content_hash)
       SELECT 'roadmap', (800000 + g)::text, 'Row ' || g, repeat('Long description text. ', 45), 'Launched', now(), now(), 'h' || g
       FROM generate_series(1, 20000) AS g`,
    );
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    // After a failed beforeAll there may be no server or context: its own error is the one to read.
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    await t?.close();
  });

  const exportTransactions = async () =>
    (
      await t.database.pool.query<{ n: number }>(
        // An open transaction whose last statement used the cursor (idle waiting for the socket, or fetching).
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%export_cursor%' AND xact_start IS NOT NULL`,
      )
    ).rows[0]!.n;

  it('limits exports per client, keeps the list answering, and cuts a stalled one, releasing its connection', async () => {
    const stalled = await stalledRequest(port, '/api/dashboard/export');
    await until(async () => (await exportTransactions()) === 1);

    const second = await fetch(`http://127.0.0.1:${port}/api/dashboard/export`);
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { message: string } }).error.message).toBe(
      'You already have 1 export running; wait for it to finish before starting another',
    );
    const list = await fetch(`http://127.0.0.1:${port}/api/unified/items?limit=5`);
    expect(list.status).toBe(200);

    await until(async () => (await exportTransactions()) === 0);
    stalled.destroy();
    const again = await fetch(`http://127.0.0.1:${port}/api/dashboard/export?search=819999`);
    expect(again.status).toBe(200);
    expect(again.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(await again.text()).toContain('819999');
  });
});

describe('pool exhaustion', () => {
  let t: TestContext;
  beforeAll(async () => {
    // The acquire timeout also bounds opening a connection: generous enough for a busy CI machine.
    t = await createTestContext({ READY_POOL_EXHAUSTED_MS: '0' }, { pool: { max: 4, acquireTimeoutMs: 2000 } });
  });
  afterAll(() => t.close());

  it('/readyz fails at once and requests get 503 after the acquire timeout instead of hanging', async () => {
    const { default: request } = await import('supertest');
    expect((await request(t.app).get('/readyz')).body).toEqual({ status: 'ready', database: 'ok' });
    const held: PoolClient[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await t.database.pool.connect());
      const ready = await request(t.app).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'not ready', database: 'pool exhausted' });
      expect((await request(t.app).get('/healthz')).status).toBe(200);
      const list = await request(t.app).get('/api/unified/items');
      expect(list.status).toBe(503);
      expect(list.headers['retry-after']).toBe('5');
      expect(list.body.error).toEqual({ name: 'ServiceUnavailableError', message: 'The server is busy; please try again in a moment' });
    } finally {
      for (const c of held) c.release();
    }
    expect((await request(t.app).get('/readyz')).status).toBe(200);
  });

  it('/readyz with patience: still ready ("busy") on a brief exhaustion, not ready once it lasts', async () => {
    const patient = await createTestContext({ READY_POOL_EXHAUSTED_MS: '10000' }, { pool: { max: 4, acquireTimeoutMs: 2000 } });
    const { default: request } = await import('supertest');
    const held: PoolClient[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await patient.database.pool.connect());
      expect((await request(patient.app).get('/readyz')).body).toEqual({ status: 'ready', database: 'busy' });
      patient.clock.set(new Date(patient.clock.now().getTime() + 9_000).toISOString());
      expect((await request(patient.app).get('/readyz')).status).toBe(200);
      patient.clock.set(new Date(patient.clock.now().getTime() + 1_000).toISOString());
      const down = await request(patient.app).get('/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ status: 'not ready', database: 'pool exhausted' });
      // A free look starts the count again.
      held.pop()?.release();
      expect((await request(patient.app).get('/readyz')).body).toEqual({ status: 'ready', database: 'ok' });
      held.push(await patient.database.pool.connect());
      expect((await request(patient.app).get('/readyz')).body).toEqual({ status: 'ready', database: 'busy' });
    } finally {
      for (const c of held) c.release();
      await patient.close();
    }
  });
});
