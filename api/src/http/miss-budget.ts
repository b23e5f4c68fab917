import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
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
  return guestBudgetKey(req.ip);
}

/** A client without a session or token is its network: the same key whether the route or the list's lane counts it. */
const guestBudgetKey = (ip: string | undefined) => `addr:${clientAddressKey(ip) ?? 'unknown'}`;

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
  /** What the list's lane charged a request before Express saw it: the route takes that outcome instead of counting again. */
  const chargedAhead = new WeakMap<IncomingMessage, Promise<Refusal | null>>();

  /** Counts `count` answers against `key`'s budget: null when within it, else the refusal (not thrown yet). */
  async function count(key: string, n: number): Promise<Refusal | null> {
    let hits = 0;
    let resetTime: Date | undefined;
    for (let i = 0; i < n; i++) ({ totalHits: hits, resetTime } = await store.increment(key));
    if (hits <= limit) return null;
    const error = new RateLimitError(MISS_BUDGET_MESSAGE);
    error.retryAfterSeconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
    return { error, key, hits };
  }

  return {
    /** Counts one answer no cache could give; throws RateLimitError (with its Retry-After) past the budget. */
    async charge(req: Request, n = 1): Promise<void> {
      const ahead = chargedAhead.get(req);
      if (ahead) chargedAhead.delete(req);
      if (!ahead && opts.perMinute <= 0) return;
      const refusal = await (ahead ?? count(budgetKeyOf(req), n));
      if (!refusal) return;
      req.log?.info({ key: refusal.key, hits: refusal.hits }, 'cache-miss budget spent');
      throw refusal.error;
    },

    /**
     * The same count for a guest's request the list's lane answers before Express (no session, no token: the client
     * is its network, `ip` as Express's req.ip reads it). Throws past the budget; the lane then hands the request to
     * Express, whose route gets this outcome from `charge` (logged and thrown there) rather than counting it again.
     */
    async chargeGuest(req: IncomingMessage, ip: string | undefined): Promise<void> {
      if (opts.perMinute <= 0) return;
      const outcome = count(guestBudgetKey(ip), 1);
      chargedAhead.set(req, outcome);
      if (await outcome) throw new RateLimitError(MISS_BUDGET_MESSAGE);
    },
  };
}
export type MissBudget = ReturnType<typeof createMissBudget>;

interface Refusal {
  error: RateLimitError;
  key: string;
  hits: number;
}
