import { endpoints } from '@radar/contracts';
import type { BaseDeps } from '../../deps.js';
import { implement, Reply, type EndpointImplementation } from '../../http/endpoints.js';

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
export function createHealthEndpoints(deps: Pick<BaseDeps, 'pool'>, options: HealthOptions = {}): EndpointImplementation[] {
  return [
    implement(endpoints.health.health, () => ({ status: 'ok' as const })),
    implement(endpoints.health.ready, async () => {
      if (options.isStopping?.()) return Reply.status(503, { status: 'not ready', reason: 'shutting down' });
      if (poolExhausted(deps.pool)) return Reply.status(503, { status: 'not ready', database: 'pool exhausted' });
      try {
        await deps.pool.query('select 1');
        return { status: 'ready', database: 'ok' };
      } catch {
        return Reply.status(503, { status: 'not ready', database: 'unreachable' });
      }
    }),
  ];
}
