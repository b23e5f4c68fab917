import cluster from 'node:cluster';
import { ClusterMemoryStoreWorker } from '@express-rate-limit/cluster-memory-store';
import type { Store } from 'express-rate-limit';

/**
 * The store of an in-memory rate limiter (`prefix` names the limiter). In a cluster worker (WEB_CONCURRENCY > 1)
 * the counts live in the primary, so a limit holds across all workers instead of once per worker; otherwise the
 * limiter's own memory store (express-rate-limit's default).
 */
export function limiterStore(prefix: string): { store?: Store } {
  return cluster.isWorker ? { store: new ClusterMemoryStoreWorker({ prefix }) } : {};
}
