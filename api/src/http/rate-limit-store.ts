import cluster from 'node:cluster';
import { ClusterMemoryStoreWorker } from '@express-rate-limit/cluster-memory-store';
import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { PER_ADDRESS } from './client-address.js';
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
 * A limiter of `limit` requests per client address (an IPv6 /64 counts as one) in `windowMs`, shared by all cluster
 * workers; over the limit the request gets 429 with `message` (RateLimitError) and the draft-8 RateLimit headers.
 * `name` names its counts (and keeps limiters apart in the cluster store).
 */
export function perAddressLimiter(opts: { name: string; windowMs: number; limit: number; message: string }): RequestHandler {
  return rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    ...PER_ADDRESS,
    ...limiterStore(opts.name),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError(opts.message)),
  });
}

/**
 * A limiter of `limit` requests per signed-in user in `windowMs` (for routes behind a sign-in check), shared by all
 * cluster workers; over the limit 429 with `message`.
 */
export function perUserLimiter(opts: { name: string; windowMs: number; limit: number; message: string }): RequestHandler {
  return rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    keyGenerator: (req) => `user:${req.auth?.user.id ?? 'none'}`,
    ...limiterStore(opts.name),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitError(opts.message)),
  });
}
