import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createApp } from './app.js';
import type { AppContext } from './app-context.js';
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

/** config -> database -> migrations -> http server -> jobs; graceful shutdown on SIGTERM/SIGINT. */
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
  const app = createApp(ctx, {
    staticRoot: config.STATIC_ROOT ?? REPO_ROOT,
    runtimeConfig: buildRuntimeConfig(config),
  });

  const server = await listen(app, config, log);
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
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await jobs?.stop().catch((err) => log.error({ err }, 'stopping jobs failed'));
    await database.close().catch(() => undefined);
    await embedded?.stop().catch((err) => log.error({ err }, 'stopping embedded PostgreSQL failed'));
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function listen(app: ReturnType<typeof createApp>, config: Config, log: Logger): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(config.PORT, config.HOST, (err?: Error) => {
      // Express 5 hands EADDRINUSE to this callback instead of throwing.
      if (err) return reject(err);
      log.info({ port: config.PORT, url: config.PUBLIC_URL ?? `http://localhost:${config.PORT}` }, 'M365 Radar is listening');
      resolve(server);
    });
  });
}

main().catch((err) => {
  process.stderr.write(`M365 Radar failed to start: ${err?.stack ?? err}\n`);
  process.exit(1);
});
