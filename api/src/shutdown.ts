import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from './db/client.js';
import type { EmbeddedServer } from './db/embedded.js';
import type { JobRunner } from './jobs/agenda.js';
import type { TrackerService } from './features/trackers/tracker.service.js';
import type { AlertsService } from './features/alerts/alerts.service.js';
import type { Logger } from './logger.js';
import type { MailService } from './mail/mail.service.js';
import type { SyncService } from './features/sync/sync.service.js';

export interface RunningParts {
  log: Logger;
  /** SHUTDOWN_TIMEOUT_MS: how long requests and jobs in progress get to finish. */
  timeoutMs: number;
  /** The http server of this process; absent in a cluster primary, whose workers serve. */
  server?: Server;
  /** A cluster primary's HTTP workers: each finishes its own requests within the same budget. */
  workers?: { stop(): Promise<void> };
  jobs?: JobRunner;
  sync: Pick<SyncService, 'drain' | 'abortFetches'>;
  mail: Pick<MailService, 'drain' | 'close'>;
  /** Saved-search alerts: webhook deliveries, digests and sweeps in progress, and a request's Send test. */
  alerts: Pick<AlertsService, 'drain' | 'abortDeliveries'>;
  /** Calls to work trackers (pushes, reads) in progress. */
  trackers?: Pick<TrackerService, 'drain' | 'abortCalls'>;
  /** The start-up tasks (first sync), still running or done. */
  startup: Promise<unknown>;
  database: Pick<Database, 'close'>;
  embedded?: EmbeddedServer;
}

/** After the budget, aborted work gets this long to record how it ended before connections are closed anyway. */
const AFTER_ABORT_GRACE_MS = 5_000;

/**
 * Graceful shutdown, in dependency order: stop accepting connections (readyz already fails and kept-alive clients
 * are told to reconnect elsewhere), let requests in flight, running jobs, syncs, mail sends and alert deliveries
 * finish, within `timeoutMs`; then stop Agenda and its pool, close the api's pool, and only then stop the embedded
 * PostgreSQL — everything above still needed it. Past the budget, feed fetches still running are aborted (their runs
 * are recorded as interrupted and nothing is applied), so are webhook requests waiting for an answer (recorded as
 * network errors and retried by the next process), and open connections are closed. Resolves when everything is down.
 */
export async function shutDown(parts: RunningParts, signal: string): Promise<void> {
  const { log, server } = parts;
  log.info({ signal, timeoutMs: parts.timeoutMs }, 'shutting down: finishing requests, jobs and syncs in progress');
  const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  // Connections become idle as their last response ends; close each as soon as it does.
  const idleSweep = setInterval(() => server?.closeIdleConnections(), 100);
  const work = Promise.allSettled([
    serverClosed,
    parts.workers?.stop(),
    parts.jobs?.drain(),
    parts.sync.drain(),
    parts.startup,
    parts.mail.drain(),
    parts.alerts.drain(),
    parts.trackers?.drain(),
  ]);
  const budget = new AbortController();
  const finished = await Promise.race([work.then(() => true), sleep(parts.timeoutMs, false, { signal: budget.signal }).catch(() => false)]);
  budget.abort();
  if (!finished) {
    log.warn({ timeoutMs: parts.timeoutMs }, 'shutdown budget used up: aborting feed fetches and closing open connections');
    parts.sync.abortFetches();
    parts.alerts.abortDeliveries();
    parts.trackers?.abortCalls();
    server?.closeAllConnections();
    const grace = new AbortController();
    await Promise.race([work, sleep(AFTER_ABORT_GRACE_MS, undefined, { signal: grace.signal }).catch(() => undefined)]);
    grace.abort();
  }
  clearInterval(idleSweep);
  await parts.jobs?.close();
  parts.mail.close();
  await parts.database.close();
  await parts.embedded?.stop();
  log.info('stopped');
}
