import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDb, type TestDatabase } from '../test/db.js';
import { captureLog } from '../test/log-capture.js';
import { connectDatabase } from './db/client.js';
import { safeErrorSerializer } from './logger.js';

/** What must never reach a log: the connection's password, the backend's cancel key and the client object itself. */
const LEAKS = /secretKey|processID|connectionParameters|"password"|radar:radar|_ending|_queryable/;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDb();
});
afterAll(() => database.close());

describe('logs never carry database clients', () => {
  it('an idle connection killed by the server is logged with its error only', async () => {
    const { log, lines } = captureLog();
    const watched = connectDatabase(database.url, log, { max: 1 });
    const client = await watched.pool.connect();
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    client.release();
    // pg-pool attaches the whole client to this error (err.client): connection parameters, password, cancel key.
    await database.pool.query('select pg_terminate_backend($1)', [pid]);
    const deadline = Date.now() + 5000;
    while (!lines.some((l) => l.includes('idle database connection lost')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const line = lines.find((l) => l.includes('idle database connection lost'))!;
    expect(JSON.parse(line)).toMatchObject({ level: 40, err: { message: expect.stringMatching(/terminat/) } });
    expect(line).not.toMatch(LEAKS);
    await watched.close();
  });

  it('scrubs clients, pools and sockets anywhere in an error and its causes', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const cause = Object.assign(new Error('inner'), { connection: client, detail: 'kept' });
      const err = Object.assign(new Error('outer', { cause }), { client, pool: database.pool, code: '57P01' });
      const out = JSON.stringify(safeErrorSerializer(err));
      expect(out).not.toMatch(LEAKS);
      expect(JSON.parse(out)).toMatchObject({ message: expect.stringContaining('outer'), code: '57P01' });
      expect(out).toContain('kept');
      const { log, lines } = captureLog();
      log.error({ err }, 'query failed');
      expect(lines[0]).not.toMatch(LEAKS);
    } finally {
      await client.end();
    }
  });
});
