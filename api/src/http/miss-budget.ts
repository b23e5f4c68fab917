import type { Request } from 'express';
import { MemoryStore, type Store } from 'express-rate-limit';
import { RateLimitError } from '../lib/errors.js';
import { clientAddressKey } from './client-address.js';
import { limiterStore } from './rate-limit-store.js';

/** The budget's window: a client spends at most a sixth of its per-minute budget in any ten seconds. */
const WINDOW_MS = 10_000;

export const MISS_BUDGET_MESSAGE = 'Too many requests that no cache could answer: wait a few seconds (answers already made stay available)';

/** Who pays for a request: its API token, its signed-in user, or its network (an IPv6 /64 counts as one). */
export function budgetKeyOf(req: Request): string {
  if (req.apiToken) return `token:${req.apiToken.id}`;
  if (req.auth) return `user:${req.auth.user.id}`;
  return `addr:${clientAddressKey(req.ip) ?? 'unknown'}`;
}

/**
 * Work no cache could answer (a list page or search not made before, a feed not rendered at this data version, a
 * version compare, an item's history, an MCP tool call) costs the database and CPU what a cached answer does not;
 * each client gets a budget of CACHE_MISS_BUDGET such answers a minute (counted in ten-second windows, shared by the
 * cluster's workers like the other limiters), past which it gets 429 with Retry-After. Answers served from a cache are
 * never counted, so readers of what others already asked for are never limited.
 */
export function createMissBudget(opts: { perMinute: number }) {
  const limit = Math.max(1, Math.ceil(opts.perMinute / 6));
  const { store: clustered } = limiterStore('cache-miss-budget');
  const store: Store = clustered ?? new MemoryStore();
  store.init?.({ windowMs: WINDOW_MS } as Parameters<NonNullable<Store['init']>>[0]);
  return {
    /** Counts one answer no cache could give; throws RateLimitError (with its Retry-After) past the budget. */
    async charge(req: Request, count = 1): Promise<void> {
      if (opts.perMinute <= 0) return;
      const key = budgetKeyOf(req);
      let hits = 0;
      let resetTime: Date | undefined;
      for (let i = 0; i < count; i++) ({ totalHits: hits, resetTime } = await store.increment(key));
      if (hits <= limit) return;
      const error = new RateLimitError(MISS_BUDGET_MESSAGE);
      error.retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
      req.log?.info({ key, hits }, 'cache-miss budget spent');
      throw error;
    },
  };
}
export type MissBudget = ReturnType<typeof createMissBudget>;
