import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { AppContext } from './app-context.js';
import { startWorkers, type WorkerPool } from './cluster.js';
import { ConfigError, loadConfig, securityWarnings, type Config } from './config.js';
import { applyMigrations, connectDatabase } from './db/client.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.js';
import { seedBuiltInRoles } from './db/seed.js';
import { createJobRunner, type JobRunner } from './jobs/agenda.js';
import { systemClock } from './lib/clock.js';
import { resolveSecret } from './lib/secret.js';
import { createLogger, type Logger } from './logger.js';
import { buildRuntimeConfig } from './runtime-config.js';
import { createServices } from './services.js';
import { startupTasks } from './startup.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * config -> database -> migrations -> http server -> jobs; graceful shutdown on SIGTERM/SIGINT. With
 * WEB_CONCURRENCY > 1 the http server runs in that many cluster workers (runWorker) and this process keeps the rest.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.LOG_LEVEL);
  if (cluster.isWorker) return runWorker(config, log);
  for (const warning of securityWarnings(config)) log.warn({ security: true }, warning);
  const dataDir = path.resolve(config.DATA_DIR);
  let embedded: EmbeddedServer | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log.info({ dataDir }, 'no DATABASE_URL: starting the embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      persistent: true,
      database: 'radar',
      passwordFile: path.join(dataDir, 'postgres-password'),
      onLog: (line) => log.debug({ postgres: line.trim() }),
    });
    if (embedded.migratedLegacyPassword) {
      log.warn('embedded PostgreSQL: the fixed password of older installs was replaced by a random one (DATA_DIR/postgres-password)');
    }
    databaseUrl = embedded.url('radar');
  }
  const database = connectDatabase(databaseUrl, log);
  await applyMigrations(database.db);
  await seedBuiltInRoles(database.db);
  log.info('database migrated');

  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  const base = {
    config,
    db: database.db,
    pool: database.pool,
    log,
    clock: systemClock,
    secret: resolveSecret(config.SESSION_SECRET, dataDir),
    publicUrl,
  };
  const ctx: AppContext = { ...base, services: createServices(base) };
  let server: Server | undefined;
  let workers: WorkerPool | undefined;
  if (config.WEB_CONCURRENCY > 1) {
    workers = startWorkers(config.WEB_CONCURRENCY, { DATABASE_URL: databaseUrl }, log);
    await workers.ready;
    log.info({ port: config.PORT, workers: config.WEB_CONCURRENCY, url: publicUrl }, 'M365 Radar is listening');
  } else {
    server = await listen(createApp(ctx, { staticRoot: config.STATIC_ROOT ?? REPO_ROOT, runtimeConfig: buildRuntimeConfig(config) }), config, log);
  }
  let jobs: JobRunner | undefined;
  if (config.JOBS_ENABLED) {
    jobs = createJobRunner(ctx, databaseUrl);
    await jobs.start();
    log.info('jobs started');
  }
  for (const task of startupTasks) {
    task(ctx, { isEmbedded: Boolean(embedded) }).catch((err) =>
      log.error({ err }, 'startup task failed'),
    );
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    if (server) await closeServer(server);
    await workers?.stop();
    await jobs?.stop().catch((err) => log.error({ err }, 'stopping jobs failed'));
    await database.close().catch(() => undefined);
    await embedded?.stop().catch((err) => log.error({ err }, 'stopping embedded PostgreSQL failed'));
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * A cluster worker: the http server only, on the primary's database (DATABASE_URL, which the primary passes; a
 * worker never starts the embedded PostgreSQL, runs migrations, jobs or start-up tasks: the primary does, once).
 */
async function runWorker(config: Config, log: Logger): Promise<void> {
  if (!config.DATABASE_URL) throw new Error('a cluster worker takes DATABASE_URL from its primary; it never starts a database itself');
  const database = connectDatabase(config.DATABASE_URL, log);
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  // The primary resolved the secret before forking (a generated one is in DATA_DIR by now).
  const secret = resolveSecret(config.SESSION_SECRET, path.resolve(config.DATA_DIR));
  const base = { config, db: database.db, pool: database.pool, log, clock: systemClock, secret, publicUrl };
  const ctx: AppContext = { ...base, services: createServices(base) };
  const app = createApp(ctx, { staticRoot: config.STATIC_ROOT ?? REPO_ROOT, runtimeConfig: buildRuntimeConfig(config) });
  const server = await listen(app, config, log, { quiet: true });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await closeServer(server);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  // Ctrl-C reaches every process of the terminal's group: the primary stops the workers in order.
  process.on('SIGINT', () => undefined);
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

function listen(app: ReturnType<typeof createApp>, config: Config, log: Logger, opts: { quiet?: boolean } = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(config.PORT, config.HOST, (err?: Error) => {
      // Express 5 hands EADDRINUSE to this callback instead of throwing.
      if (err) return reject(err);
      if (!opts.quiet) log.info({ port: config.PORT, url: config.PUBLIC_URL ?? `http://localhost:${config.PORT}` }, 'M365 Radar is listening');
      resolve(server);
    });
  });
}

main().catch((err) => {
  process.stderr.write(`M365 Radar failed to start: ${err?.stack ?? err}\n`);
  process.exit(1);
});
