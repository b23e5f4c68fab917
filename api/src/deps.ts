import type pg from 'pg';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Clock } from './lib/clock.js';
import type { Logger } from './logger.js';

/** What every feature gets: the same objects in the server, the jobs, the CLI and the tests. */
export interface BaseDeps {
  config: Config;
  db: Db;
  pool: pg.Pool;
  log: Logger;
  clock: Clock;
  /** Signs unsubscribe tokens and keys sign-in code hashes. */
  secret: string;
  /** Base URL for links in mails. */
  publicUrl: string;
}
