import cluster from 'node:cluster';
import { ClusterMemoryStoreWorker } from '@express-rate-limit/cluster-memory-store';
import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import type { DbOrTx } from '../db/client.js';
import { PER_ADDRESS } from './client-address.js';
import { PostgresRateLimitStore } from './rate-limit-hits.repo.js';
import { RateLimitError } from '../lib/errors.js';

/**
 * The store of an in-memory rate limiter (`prefix` names the limiter). In a cluster worker (WEB_CONCURRENCY > 1)
 * the counts live in the primary, so a limit holds across all workers instead of once per worker; otherwise the
 * limiter's own memory store (express-rate-limit's default).
 */
export function limiterStore(prefix: string): { store?: Store } {
  return cluster.isWorker ? { store: new ClusterMemoryStoreWorker({ prefix }) } : {};
}

/**
 * What a limiter counts in: PostgreSQL when `db` is given (one count for every api process on every machine: the
 * limits that guard secrets and outbound requests), else the in-memory store of `limiterStore`.
 */
function storeOf(name: string, db: DbOrTx | undefined): { store?: Store } {
  return db ? { store: new PostgresRateLimitStore(db, name) } : limiterStore(name);
}

interface LimiterOptions {
  name: string;
  windowMs: number;
  limit: number;
  message: string;
  /** Count in PostgreSQL, shared by every process, instead of in memory. */
  db?: DbOrTx;
}

/**
 * A limiter of `limit` requests per client address (an IPv6 /64 counts as one) in `windowMs`, shared by all cluster
 * workers, or by every process when `db` is given; over the limit the request gets 429 with `message`
 * (RateLimitError) and the draft-8 RateLimit headers. `name` names its counts (and keeps limiters apart in a store).
 */
export function perAddressLimiter(opts: LimiterOptions): RequestHandler {
  return rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    ...PER_ADDRESS,
    ...storeOf(opts.name, opts.db),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError(opts.message)),
  });
}

/**
 * A limiter of `limit` requests per signed-in user in `windowMs` (for routes behind a sign-in check), shared by all
 * cluster workers, or by every process when `db` is given; over the limit 429 with `message`.
 */
export function perUserLimiter(opts: LimiterOptions): RequestHandler {
  return rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    keyGenerator: (req) => `user:${req.auth?.user.id ?? 'none'}`,
    ...storeOf(opts.name, opts.db),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError(opts.message)),
  });
}
