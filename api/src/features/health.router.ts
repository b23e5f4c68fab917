import { sql } from 'drizzle-orm';
import { Router } from 'express';
import type { BaseDeps } from '../deps.js';

/** /healthz: the process answers. /readyz: the database answers too (load balancers route on it). */
export function createHealthRouter(deps: Pick<BaseDeps, 'db'>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await deps.db.execute(sql`select 1`);
      res.json({ status: 'ready', database: 'ok' });
    } catch {
      res.status(503).json({ status: 'not ready', database: 'unreachable' });
    }
  });
  return router;
}
