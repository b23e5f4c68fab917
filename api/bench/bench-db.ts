import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, connectDatabase, type Database } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { onInterrupt } from './run.js';

export interface BenchDatabaseOptions {
  poolMax: number;
  /** Database name on the server (default 'bench'). */
  database?: string;
  /** Keep the data in this directory between runs (for tuning) instead of a throw-away one. */
  keepDir?: string;
}

/**
 * An embedded PostgreSQL with a migrated database for one benchmark (throw-away, fsync off, unless `keepDir`): runs
 * `fn`, then stops the server and removes its directory — also when `fn` fails or the bench is interrupted (Ctrl-C).
 */
export async function withBenchDatabase<T>(options: BenchDatabaseOptions, fn: (db: Database & { url: string; dataDir: string }) => Promise<T>): Promise<T> {
  const { keepDir } = options;
  const dataDir = keepDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'radar-bench-pg-'));
  const removeDir = () => {
    if (!keepDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const name = options.database ?? 'bench';
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    pg = await startEmbeddedPostgres({ dataDir, persistent: Boolean(keepDir), database: name });
  } catch (err) {
    removeDir();
    throw err;
  }
  const offInterrupt = onInterrupt(async () => {
    await pg.stop().catch(() => undefined);
    removeDir();
  });
  const url = pg.url(name);
  const database = connectDatabase(url, undefined, { max: options.poolMax });
  try {
    await applyMigrations(url);
    return await fn({ ...database, url, dataDir });
  } finally {
    // Each step on its own, so one failing does not leave the server process or the directory behind.
    await database.close().catch(() => undefined);
    await pg.stop().catch(() => undefined);
    removeDir();
    offInterrupt();
  }
}
