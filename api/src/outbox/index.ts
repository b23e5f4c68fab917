/**
 * The one outbox: what mail, alert webhooks and tracker calls share in their delivery (docs/decisions/0015-one-outbox.md).
 * Claiming due rows (SKIP LOCKED, with a lease), the retry schedule, settling a try, the failure streak that pauses a
 * destination, the delivery log line, and retention. Each feature keeps what is its own: how to send, what a
 * destination is, and what to mail when one is paused.
 */
export {
  claimDue,
  purgeFinished,
  purgeLog,
  recordFailure,
  recordSuccess,
  releaseClaims,
  writeState,
  type ClaimOptions,
  type FailureStreak,
  type OutboxTable,
  type PausableTable,
} from './outbox.repo.js';
export { recordAttempt, type AttemptResult, type LogEntry, type RecordSpec, type Recorded } from './record.js';
export { backoffMs, DEFAULT_RETRY_POLICY, retryAfterMs, settle, type AttemptOutcome, type OutboxState, type RetryPolicy, type Settlement } from './schedule.js';
