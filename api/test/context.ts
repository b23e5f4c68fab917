import type { Express } from 'express';
import { createApp } from '../src/app.js';
import type { AppContext } from '../src/app-context.js';
import { loadConfig, type Config } from '../src/config.js';
import { fixedClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import type { Resolver } from '../src/features/alerts/ssrf-guard.js';
import { createServices } from '../src/services.js';
import type { PoolOptions } from '../src/db/client.js';
import { createTestDb, type TestDatabase } from './db.js';

export interface TestContext {
  ctx: AppContext;
  app: Express;
  database: TestDatabase;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
}

/**
 * A real app on a fresh database with a fixed clock and a silent logger. `env` overrides configuration keys
 * (as strings, exactly as the environment would give them).
 */
export async function createTestContext(env: Record<string, string> = {}, opts: TestContextOptions = {}): Promise<TestContext> {
  return contextOver(await createTestDb(opts.pool), env, opts);
}

export interface TestContextOptions {
  now?: string;
  pool?: PoolOptions;
  resolve?: Resolver;
}

/** The app of `createTestContext` over a database already made; close() closes the database. */
export function contextOver(database: TestDatabase, env: Record<string, string> = {}, opts: TestContextOptions = {}): TestContext {
  // The cache-miss budget is off unless a test asks for it: suites ask for many distinct lists from one client.
  const config: Config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:8080', CACHE_MISS_BUDGET: '0', ...env });
  const clock = fixedClock(opts.now ?? '2026-02-07T12:00:00Z');
  const base = {
    config,
    db: database.db,
    pool: database.pool,
    log: createLogger(config.LOG_LEVEL),
    clock,
    secret: 'test-secret-test-secret-test-secret-0123456789',
    publicUrl: config.PUBLIC_URL ?? 'http://localhost:8080',
  };
  const ctx: AppContext = { ...base, services: createServices(base, { resolve: opts.resolve }) };
  const app = createApp(ctx);
  return { ctx, app, database, clock, close: () => database.close() };
}
