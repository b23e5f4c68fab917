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
 * connection to give, and the database answers (load balancers route on it). A pool with no connection to give fails
 * /readyz (at once, without waiting for the acquire timeout) only once it has stayed so for READY_POOL_EXHAUSTED_MS:
 * a burst exhausts every replica's pool at the same moment, and failing on one look would take them all out of the
 * load balancer together. Each look that finds the pool free starts the count again.
 */
export function createHealthEndpoints(deps: Pick<BaseDeps, 'pool' | 'clock' | 'config'>, options: HealthOptions = {}): EndpointImplementation[] {
  let exhaustedSince: number | null = null;
  const patienceMs = deps.config.READY_POOL_EXHAUSTED_MS;
  return [
    implement(endpoints.health.health, () => ({ status: 'ok' as const })),
    implement(endpoints.health.ready, async () => {
      if (options.isStopping?.()) return Reply.status(503, { status: 'not ready', reason: 'shutting down' });
      if (poolExhausted(deps.pool)) {
        const now = deps.clock.now().getTime();
        exhaustedSince ??= now;
        if (now - exhaustedSince >= patienceMs) return Reply.status(503, { status: 'not ready', database: 'pool exhausted' });
        // Busy, not broken (yet): still ready, and no query that would wait for a connection.
        return { status: 'ready', database: 'busy' };
      }
      exhaustedSince = null;
      try {
        await deps.pool.query('select 1');
        return { status: 'ready', database: 'ok' };
      } catch {
        return Reply.status(503, { status: 'not ready', database: 'unreachable' });
      }
    }),
  ];
}
