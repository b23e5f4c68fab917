import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { recordFailure, recordSuccess, writeState, type FailureStreak, type OutboxTable, type PausableTable } from './outbox.repo.js';
import { settle, type AttemptOutcome, type RetryPolicy } from './schedule.js';

/** What one try of a delivery did, as the feature that made it saw it. */
export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number | null;
  /** The start of the receiver's answer. */
  response: string;
  error: string | null;
  /** When to try again (retrying only); the backoff when absent. */
  retryInMs?: number;
}

/** The delivery-log columns every log shares (db/schema/outbox.ts's attemptLogColumns), and when. */
export interface LogEntry {
  attemptedAt: Date;
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number | null;
  responseExcerpt: string;
  error: string | null;
}

export interface RecordSpec {
  now: Date;
  attempt: AttemptResult;
  /** The outbox row tried (claimed `attempts` times), or null for a call made outside the outbox (a connection test). */
  row: { table: OutboxTable; id: number; attempts: number } | null;
  policy: RetryPolicy;
  /** Logged but never retried (a "send test"). */
  noRetry?: boolean;
  /** The row goes back without this claim counting as an attempt (it waited on something else, it did not fail). */
  uncounted?: boolean;
  /** Writes the log line with the feature's own columns (which delivery, which destination); null: not logged. */
  log: ((entry: LogEntry) => Promise<void>) | null;
  /** The log keeps this much of the receiver's answer. */
  excerptChars?: number;
  /** The destination whose failure streak this try moves (null: it does not, e.g. a test). */
  streak: { table: PausableTable; id: number; pauseAfter: number; reason: string; also?: SQL } | null;
}

export interface Recorded {
  outcome: AttemptOutcome;
  /** The failure streak after a failed try (null after a success, or without a streak). */
  streak: FailureStreak | null;
}

/**
 * Records a try inside the caller's transaction: the log line, the row's new state (settle: sent, retried at, or
 * failed for good) and the destination's failure streak. When `streak.pausedNow` comes back, this try paused the
 * destination: the caller mails its people in the same transaction.
 */
export async function recordAttempt(tx: DbOrTx, spec: RecordSpec): Promise<Recorded> {
  const { now, attempt, row } = spec;
  const settled = row ? settle(attempt, row, now, spec.policy, { noRetry: spec.noRetry }) : null;
  const outcome = settled?.outcome ?? attempt.outcome;
  await spec.log?.({
    attemptedAt: now,
    outcome,
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    responseExcerpt: spec.excerptChars === undefined ? attempt.response : attempt.response.slice(0, spec.excerptChars),
    error: attempt.error,
  });
  // Only a row going back to wait is uncounted: one given up keeps the attempts it had.
  if (row && settled) await writeState(tx, row.table, row.id, settled.set, spec.uncounted === true && settled.set.status === 'pending');
  if (!spec.streak) return { outcome, streak: null };
  const { table, id, also } = spec.streak;
  if (outcome === 'sent') {
    await recordSuccess(tx, table, id, { also });
    return { outcome, streak: null };
  }
  return { outcome, streak: await recordFailure(tx, table, id, { at: now, pauseAfter: spec.streak.pauseAfter, reason: spec.streak.reason, also }) };
}
