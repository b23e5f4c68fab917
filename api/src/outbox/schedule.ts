/**
 * When an outbox row is tried again, and what an attempt's result does to the row. Pure: the same answers for mail,
 * alert webhooks and tracker calls, so a retry schedule is the same wherever it is read.
 */

const HOUR_MS = 60 * 60 * 1000;

export interface RetryPolicy {
  /** The first retry's delay; each further one doubles it. */
  baseMs: number;
  /** No two tries further apart than this. */
  maxMs: number;
  /** A receiver's Retry-After is honoured up to this (a receiver asking for a day is not waited a day). */
  maxRetryAfterMs: number;
  /** Tries before a row is given up. */
  maxAttempts: number;
}

/** What the three outboxes share unless they say otherwise: 1 minute doubling to 6 hours, Retry-After up to 1 hour, 8 tries. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 60_000, maxMs: 6 * HOUR_MS, maxRetryAfterMs: HOUR_MS, maxAttempts: 8 };

/** The wait after the `attempts`-th try failed: base × 2^(attempts−1), at most maxMs. */
export function backoffMs(attempts: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'> = DEFAULT_RETRY_POLICY): number {
  return Math.min(policy.baseMs * 2 ** Math.max(0, attempts - 1), policy.maxMs);
}

/**
 * The wait a receiver asked for (its Retry-After, in ms; null when it gave none, then the backoff), never longer than
 * maxRetryAfterMs.
 */
export function retryAfterMs(askedMs: number | null, attempts: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  return Math.min(askedMs ?? backoffMs(attempts, policy), policy.maxRetryAfterMs);
}

/** How one try ended, as the feature that made it saw it. */
export type AttemptOutcome = 'sent' | 'retrying' | 'failed';

/** The outbox columns a settled try writes (the shape of db/schema/outbox.ts's outboxColumns). */
export type OutboxState =
  | { status: 'sent'; sentAt: Date; lastError: null }
  | { status: 'failed'; lastError: string | null }
  | { status: 'pending'; lastError: string | null; nextAttemptAt: Date };

export interface Settlement {
  /** Retrying past the last try, or on a row that is never retried, is failed. */
  outcome: AttemptOutcome;
  set: OutboxState;
}

/**
 * Classifies a try of a row that has now been claimed `attempts` times: sent; retried at now + `retryInMs` (or the
 * backoff); or failed for good, when the feature said so, when the row is not to be retried (`noRetry`), or when it
 * has had its `maxAttempts`.
 */
export function settle(
  attempt: { outcome: AttemptOutcome; error: string | null; retryInMs?: number },
  row: { attempts: number },
  now: Date,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  opts: { noRetry?: boolean } = {},
): Settlement {
  if (attempt.outcome === 'sent') return { outcome: 'sent', set: { status: 'sent', sentAt: now, lastError: null } };
  if (attempt.outcome === 'failed' || opts.noRetry || row.attempts >= policy.maxAttempts)
    return { outcome: 'failed', set: { status: 'failed', lastError: attempt.error } };
  const nextAttemptAt = new Date(now.getTime() + (attempt.retryInMs ?? backoffMs(row.attempts, policy)));
  return { outcome: 'retrying', set: { status: 'pending', lastError: attempt.error, nextAttemptAt } };
}
