import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { AppContext } from './app-context.js';
import { startWorkers, type WorkerPool } from './cluster.js';
import { ConfigError, loadConfig, securityWarnings, type Config } from './config.js';
import { applyMigrations, connectDatabase } from './db/client.js';
import { detachEmbeddedSignalHooks, startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.js';
import { seedBuiltInRoles } from './db/seed.js';
import { createJobRunner, type JobRunner } from './jobs/agenda.js';
import { systemClock } from './lib/clock.js';
import { resolveSecret } from './lib/secret.js';
import { createLogger, exitAfterLogs, type Logger } from './logger.js';
import { buildRuntimeConfig } from './runtime-config.js';
import { createServices } from './services.js';
import { shutDown } from './shutdown.js';
import { runStartupTasks } from './startup.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Past SHUTDOWN_TIMEOUT_MS and the abort grace, something is stuck: leave anyway, with an error. */
const HARD_EXIT_AFTER_BUDGET_MS = 15_000;

/**
 * config -> database -> migrations -> http server -> jobs; graceful shutdown on SIGTERM/SIGINT (shutdown.ts). With
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
  // Our shutdown stops the embedded PostgreSQL itself, last; its own signal hooks would stop it first (and would
  // end a cluster worker before it finished its requests).
  detachEmbeddedSignalHooks();
  if (cluster.isWorker) return runWorker(config, log);
  for (const warning of securityWarnings(config)) log.warn({ security: true }, warning);
  let stopping = false;
  let shutdownRequested: string | null = null;
  const earlySignal = (signal: string) => {
    shutdownRequested = signal;
  };
  process.on('SIGTERM', earlySignal);
  process.on('SIGINT', earlySignal);

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
  await applyMigrations(databaseUrl);
  const database = connectDatabase(databaseUrl, log, {
    max: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  });
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
  // REMOTE_*_URL into the remote registry (rows an admin changed keep the admin's URL).
  await ctx.services.remotes.syncFromConfig();
  let server: Server | undefined;
  let workers: WorkerPool | undefined;
  if (config.WEB_CONCURRENCY > 1) {
    workers = startWorkers(config.WEB_CONCURRENCY, { DATABASE_URL: databaseUrl }, log);
    await workers.ready;
    log.info({ port: config.PORT, workers: config.WEB_CONCURRENCY, url: publicUrl }, 'M365 Radar is listening');
  } else {
    const app = createApp(ctx, { staticRoot: config.STATIC_ROOT ?? REPO_ROOT, runtimeConfig: buildRuntimeConfig(config), isStopping: () => stopping });
    server = await listen(app, config, log);
  }
  let jobs: JobRunner | undefined;
  if (config.JOBS_ENABLED) {
    jobs = createJobRunner(ctx, databaseUrl);
    await jobs.start();
    log.info('jobs started');
  }
  // A shutdown stops the start-up tasks between batches: they must not outlive the pool the shutdown closes.
  const startupStop = new AbortController();
  const startup = runStartupTasks(ctx, { isEmbedded: Boolean(embedded) }, startupStop.signal);

  const shutdown = async (signal: string) => {
    if (stopping) return log.info({ signal }, 'already shutting down');
    stopping = true;
    startupStop.abort();
    setTimeout(() => {
      log.error('shutdown did not finish; exiting anyway');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + HARD_EXIT_AFTER_BUDGET_MS).unref();
    try {
      await shutDown(
        {
          log,
          timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
          server,
          workers,
          jobs,
          sync: ctx.services.sync,
          mail: ctx.services.mail,
          alerts: ctx.services.alerts,
          trackers: ctx.services.trackers,
          startup,
          database,
          embedded,
        },
        signal,
      );
      exitAfterLogs(log, 0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      exitAfterLogs(log, 1);
    }
  };
  process.removeListener('SIGTERM', earlySignal);
  process.removeListener('SIGINT', earlySignal);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  if (shutdownRequested) void shutdown(shutdownRequested);
}

/**
 * A cluster worker: the http server only, on the primary's database (DATABASE_URL, which the primary passes; a
 * worker never starts the embedded PostgreSQL, runs migrations, jobs or start-up tasks: the primary does, once).
 * SIGTERM from the primary: the same graceful shutdown as one process, for its own requests and pool.
 */
async function runWorker(config: Config, log: Logger): Promise<void> {
  if (!config.DATABASE_URL) throw new Error('a cluster worker takes DATABASE_URL from its primary; it never starts a database itself');
  const database = connectDatabase(config.DATABASE_URL, log, {
    max: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  });
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  // The primary resolved the secret before forking (a generated one is in DATA_DIR by now).
  const secret = resolveSecret(config.SESSION_SECRET, path.resolve(config.DATA_DIR));
  const base = { config, db: database.db, pool: database.pool, log, clock: systemClock, secret, publicUrl };
  const ctx: AppContext = { ...base, services: createServices(base) };
  let stopping = false;
  const app = createApp(ctx, { staticRoot: config.STATIC_ROOT ?? REPO_ROOT, runtimeConfig: buildRuntimeConfig(config), isStopping: () => stopping });
  const server = await listen(app, config, log, { quiet: true });
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS + HARD_EXIT_AFTER_BUDGET_MS).unref();
    const parts = {
      log,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      server,
      sync: ctx.services.sync,
      mail: ctx.services.mail,
      alerts: ctx.services.alerts,
      trackers: ctx.services.trackers,
      startup: Promise.resolve(),
      database,
    };
    shutDown(parts, 'SIGTERM').then(
      () => exitAfterLogs(log, 0),
      (err) => {
        log.error({ err }, 'worker shutdown failed');
        exitAfterLogs(log, 1);
      },
    );
  });
  // Ctrl-C reaches every process of the terminal's group: the primary stops the workers in order.
  process.on('SIGINT', () => undefined);
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
