import { sql } from 'drizzle-orm';
import { endpoints } from '@radar/contracts';
import type { BaseDeps } from '../deps.js';
import { implement, Reply, type EndpointImplementation } from '../http/endpoints.js';

/** /healthz: the process answers. /readyz: the database answers too (load balancers route on it). */
export function createHealthEndpoints(deps: Pick<BaseDeps, 'db'>): EndpointImplementation[] {
  return [
    implement(endpoints.health.health, () => ({ status: 'ok' as const })),
    implement(endpoints.health.ready, async () => {
      try {
        await deps.db.execute(sql`select 1`);
        return { status: 'ready', database: 'ok' };
      } catch {
        return Reply.status(503, { status: 'not ready', database: 'unreachable' });
      }
    }),
  ];
}
