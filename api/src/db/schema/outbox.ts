/**
 * The columns every outbox shares (mail, alert webhooks, tracker calls), their delivery logs share, and the
 * destinations that pause after failures in a row share. One definition, spread into each table, so the delivery code
 * in src/outbox/ can claim, settle, log and purge any of them the same way; each table keeps its own rows and indexes.
 */
import { boolean, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

export const outboxStatus = pgEnum('outbox_status', ['pending', 'sending', 'sent', 'failed']);

/**
 * A row's place in the delivery: `pending` until claimed, `sending` while a worker holds it (next_attempt_at is then
 * the end of its lease), `sent` or `failed` for good. `attempts` counts the claims.
 */
export const outboxColumns = () => ({
  status: outboxStatus('status').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  lastError: text('last_error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
});

/** One line of a delivery log: when, how it ended, what the receiver answered. */
export const attemptLogColumns = () => ({
  /** sent | retrying | failed (and queued for an alert handed to the mail outbox) */
  outcome: text('outcome').notNull(),
  statusCode: integer('status_code'),
  latencyMs: integer('latency_ms'),
  responseExcerpt: text('response_excerpt').notNull().default(''),
  error: text('error'),
});

/** A destination that is paused after so many failed attempts in a row (reset by a success). */
export const pauseColumns = () => ({
  paused: boolean('paused').notNull().default(false),
  pausedReason: text('paused_reason'),
  pausedAt: ts('paused_at'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
});
