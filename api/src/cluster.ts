import cluster, { type Worker } from 'node:cluster';
import { ClusterMemoryStorePrimary } from '@express-rate-limit/cluster-memory-store';
import type { Logger } from './logger.js';

/** A worker that dies after it served is replaced after this pause (a crash loop does not spin the CPU). */
const RESTART_DELAY_MS = 1000;

export interface WorkerPool {
  /** Resolves when every worker listens on the port. */
  ready: Promise<void>;
  /** Asks every worker to finish its requests and exit; resolves when all have. */
  stop(): Promise<void>;
}

/**
 * Forks `count` HTTP workers (WEB_CONCURRENCY) that share the primary's port (node:cluster hands them connections
 * in turn). The primary keeps what must exist once per installation: the embedded PostgreSQL, the migrations, the
 * Agenda jobs and the start-up sync; a worker gets DATABASE_URL from `env` and never starts a database itself
 * (main.ts refuses to). The per-address rate limiters count in the primary (one count across workers). A worker that
 * dies after it listened is replaced; one that dies before (it cannot start) stops the start.
 */
export function startWorkers(count: number, env: Record<string, string>, log: Logger): WorkerPool {
  new ClusterMemoryStorePrimary().init();
  let stopping = false;
  let failStart: (err: Error) => void = () => undefined;
  const listening = new Set<number>();
  const fork = (): Worker => {
    const worker = cluster.fork(env);
    worker.once('listening', () => listening.add(worker.id));
    return worker;
  };
  let started = 0;
  const ready = new Promise<void>((resolve, reject) => {
    failStart = reject;
    cluster.on('listening', () => {
      if (++started === count) resolve();
    });
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const served = listening.delete(worker.id);
    if (!served) {
      failStart(new Error(`an HTTP worker exited before it listened (code ${code}, signal ${signal ?? 'none'}); see its log above`));
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'HTTP worker died; starting a new one');
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS).unref();
  });
  for (let i = 0; i < count; i++) fork();

  return {
    ready,
    stop() {
      stopping = true;
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w && !w.isDead()));
      return Promise.all(
        alive.map(
          (w) =>
            new Promise<void>((resolve) => {
              w.once('exit', () => resolve());
              w.process.kill('SIGTERM');
            }),
        ),
      ).then(() => undefined);
    },
  };
}
