import { Router } from 'express';
import type { BaseDeps } from '../deps.js';

export interface HealthOptions {
  /** True once a graceful shutdown began: the load balancer should stop sending requests here. */
  isStopping?: () => boolean;
}

/** No free connection and none can be opened: every request needing the database would wait (or fail). */
export function poolExhausted(pool: BaseDeps['pool']): boolean {
  const max = (pool.options as { max?: number }).max ?? 10;
  return pool.waitingCount > 0 || (pool.totalCount >= max && pool.idleCount === 0);
}

/**
 * /healthz: the process answers (liveness). /readyz: it can serve requests now — not shutting down, the pool has a
 * connection to give, and the database answers (load balancers route on it). A pool held by slow clients makes
 * /readyz fail at once rather than wait for the acquire timeout.
 */
export function createHealthRouter(deps: Pick<BaseDeps, 'pool'>, options: HealthOptions = {}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (options.isStopping?.()) return res.status(503).json({ status: 'not ready', reason: 'shutting down' });
    if (poolExhausted(deps.pool)) return res.status(503).json({ status: 'not ready', database: 'pool exhausted' });
    try {
      await deps.pool.query('select 1');
      res.json({ status: 'ready', database: 'ok' });
    } catch {
      res.status(503).json({ status: 'not ready', database: 'unreachable' });
    }
  });
  return router;
}
