import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda } from 'agenda';
import pg from 'pg';
import type { AppContext } from '../app-context.js';
import { LOCK_KEYS } from '../db/advisory-locks.js';
import { withSchemaLock } from '../db/schema-lock.js';
import { jobDefinitions } from './index.js';

export interface JobRunner {
  agenda: Agenda;
  start(): Promise<void>;
  /** Stops picking up jobs and waits for the running ones to finish (graceful shutdown); then close(). */
  drain(): Promise<void>;
  /** Ends the runner's own pool. */
  close(): Promise<void>;
  /** stop() + close(): unlocks running jobs without waiting (tests). */
  stop(): Promise<void>;
}

/**
 * Agenda on the same PostgreSQL. It gets a pool of its own (with an error listener) so that a server shutdown
 * while Agenda is listening does not crash the process.
 */
export interface JobRunnerOptions {
  /** How often Agenda polls (LISTEN/NOTIFY usually wakes it sooner). */
  processEveryMs?: number;
  /**
   * Overrides every job's lock lifetime. Agenda leaves a timer of half the lock lifetime after each run that
   * stop() does not clear, so tests pass a short one or the test process cannot exit.
   */
  lockLifetimeMs?: number;
}

/**
 * Agenda's backend creates its table, indexes, function and trigger on every connect (the Agenda constructor
 * connects). Two processes connecting at once fail in PostgreSQL (`CREATE OR REPLACE FUNCTION`: duplicate key in
 * pg_proc), and Agenda leaves that rejection unhandled, so the process exited: two replicas starting together lost
 * one. The connect runs under an advisory lock, one process after the other.
 */
class SchemaLockedBackend extends PostgresBackend {
  constructor(
    private readonly lockPool: pg.Pool,
    config: ConstructorParameters<typeof PostgresBackend>[0],
  ) {
    super(config);
  }

  override async connect(): Promise<void> {
    const client = await this.lockPool.connect();
    try {
      await withSchemaLock(client, LOCK_KEYS.agendaSchema, () => super.connect());
    } finally {
      // Not back into the pool: if the unlock failed the session would still hold the lock.
      client.release(true);
    }
  }
}

export function createJobRunner(ctx: AppContext, connectionString: string, opts: JobRunnerOptions = {}): JobRunner {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', (err) => ctx.log.warn({ err }, 'job pool client error'));
  const backend = new SchemaLockedBackend(pool, { pool, tableName: 'agenda_jobs', channelName: 'agenda_jobs' });
  const agenda = new Agenda({
    backend,
    name: `radar-${process.pid}`,
    processEvery: opts.processEveryMs ?? 5_000,
    defaultConcurrency: 1,
    maxConcurrency: 4,
    defaultLockLifetime: 30 * 60 * 1000,
  });
  agenda.on('error', (err: unknown) => ctx.log.error({ err }, 'agenda error'));
  agenda.on('fail', (err: unknown, job: { attrs: { name: string } }) => ctx.log.error({ err, job: job.attrs.name }, 'job failed'));
  backend.notificationChannel?.on('error', (err: unknown) => ctx.log.warn({ err }, 'job notification channel error'));
  for (const define of jobDefinitions) define(agenda, ctx);
  if (opts.lockLifetimeMs) {
    for (const definition of Object.values(agenda.definitions)) definition.lockLifetime = opts.lockLifetimeMs;
  }
  let started = false;
  // Agenda's drain holds its notification channel's connection out of `pool` until the running jobs end; close()
  // ends the wait (shutdown.ts calls it past the budget too, with a job maybe still running).
  const drainStop = new AbortController();
  let drained: Promise<unknown> = Promise.resolve();
  return {
    agenda,
    async start() {
      await agenda.start();
      started = true;
      for (const define of jobDefinitions) await define.schedule?.(agenda, ctx);
    },
    async drain() {
      if (!started) return;
      started = false;
      drained = agenda.drain({ signal: drainStop.signal });
      await drained;
    },
    async close() {
      // A drain still waiting on a running job keeps the channel's connection checked out, and pool.end() waits for
      // every checked-out connection: the shutdown then hung until main.ts's hard exit (code 1). Stopped, the drain
      // gives the connection back; the job's lock expires for the next process.
      drainStop.abort();
      await drained.catch(() => undefined);
      await endWhenQuiet(pool);
    },
    async stop() {
      if (started) await agenda.stop();
      started = false;
      await endWhenQuiet(pool);
    },
  };
}

/**
 * Ends Agenda's pool once nothing uses it. Agenda's stop() clears its timer but a queue fill already under way goes
 * on: it locks the next job and may release it again without awaiting the query (`unlockJob`), so ending the pool at
 * once made that query fail as an unhandled rejection ("Cannot use a pool after calling end on the pool"). The pool
 * is ended when no client is checked out and no query waits, twice in a row 25 ms apart, or after two seconds.
 */
async function endWhenQuiet(pool: pg.Pool, limitMs = 2_000): Promise<void> {
  const busy = () => pool.waitingCount > 0 || pool.idleCount < pool.totalCount;
  const deadline = Date.now() + limitMs;
  let quietChecks = 0;
  while (quietChecks < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    quietChecks = busy() ? 0 : quietChecks + 1;
  }
  await pool.end().catch(() => undefined);
}
