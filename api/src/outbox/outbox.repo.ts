import { getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import type { OutboxState } from './schedule.js';

/*
 * The statements of the one outbox. They name the shared columns (db/schema/outbox.ts) by their SQL names, so they
 * run on any table that spreads them in; a feature's own columns and joins come in as drizzle SQL.
 */

/** A table with the outbox columns (db/schema/outbox.ts) and a serial id. */
export type OutboxTable = PgTable & { id: AnyPgColumn; status: AnyPgColumn; attempts: AnyPgColumn; nextAttemptAt: AnyPgColumn };

export interface ClaimOptions {
  now: Date;
  /** How long a claimed row is the claimer's: past it (the process died mid-send) the row is due again. */
  leaseMs: number;
  limit: number;
  /** The feature's joins (e.g. its destination, to leave paused ones out), written with drizzle columns. */
  join?: SQL;
  /** The feature's own conditions (a paused destination, a priority lane). */
  where?: SQL;
  /** Claim order, as drizzle columns of the table (the id by default); the rows come back in it. */
  orderBy?: AnyPgColumn[];
  /** Only these rows, when due. */
  onlyIds?: readonly number[];
  /** Never these rows (this process holds them already). */
  skipIds?: readonly number[];
  /** A row never tried (attempts = 0) is due whatever its next_attempt_at says (mail stamped by a clock ahead). */
  newRowsDueAtOnce?: boolean;
}

/**
 * Marks up to `limit` due rows 'sending' (attempts + 1, next_attempt_at = the end of the lease) and returns them in
 * claim order. The rows are picked FOR UPDATE SKIP LOCKED, so two workers (two processes, or two runs of a job)
 * never claim the same row: the second one skips what the first holds. A row left 'sending' by a worker that died is
 * due again once its lease ends.
 */
export async function claimDue<T extends OutboxTable>(db: DbOrTx, table: T, opts: ClaimOptions): Promise<T['$inferSelect'][]> {
  const leaseUntil = new Date(opts.now.getTime() + opts.leaseMs);
  const name = sql.identifier(getTableName(table));
  const due = opts.newRowsDueAtOnce
    ? sql`((${table.status} = 'pending' AND (${table.attempts} = 0 OR ${table.nextAttemptAt} <= ${opts.now})) OR (${table.status} = 'sending' AND ${table.nextAttemptAt} <= ${opts.now}))`
    : sql`${table.nextAttemptAt} <= ${opts.now}`;
  const orderBy = opts.orderBy?.length ? opts.orderBy : [table.id];
  const { rows } = await db.execute<{ id: number }>(sql`
    UPDATE ${name} SET status = 'sending', attempts = attempts + 1, next_attempt_at = ${leaseUntil}
    WHERE id IN (
      SELECT ${table.id} FROM ${name} ${opts.join ?? sql``}
      WHERE ${table.status} IN ('pending', 'sending') AND ${due}
        ${opts.where ? sql`AND (${opts.where})` : sql``}
        ${opts.onlyIds ? sql`AND ${table.id} = ANY(${sql.param([...opts.onlyIds])}::int[])` : sql``}
        ${opts.skipIds?.length ? sql`AND ${table.id} <> ALL(${sql.param([...opts.skipIds])}::int[])` : sql``}
      ORDER BY ${sql.join(orderBy, sql`, `)}
      LIMIT ${opts.limit}
      FOR UPDATE OF ${name} SKIP LOCKED
    )
    RETURNING id`);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  // drizzle cannot follow a generic table through select(); the rows are the table's own.
  const claimed = await db
    .select()
    .from(table as PgTable)
    .where(inArray(table.id, ids))
    .orderBy(...orderBy);
  return claimed as T['$inferSelect'][];
}

/**
 * Claimed rows a stopping process will not try: due again at once for another process or the next start, and the
 * claim does not count as an attempt.
 */
export async function releaseClaims(db: DbOrTx, table: OutboxTable, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    UPDATE ${sql.identifier(getTableName(table))} SET status = 'pending', attempts = attempts - 1, next_attempt_at = ${now}
    WHERE id = ANY(${sql.param([...ids])}::int[]) AND status = 'sending'`);
}

// ------------------------------------------------------------------ settling a try

/** Writes a settled state to any outbox table (the columns are the shared ones). */
export async function writeState(tx: DbOrTx, table: OutboxTable, id: number, set: OutboxState, uncounted = false): Promise<void> {
  const assignments: SQL[] = [sql`status = ${set.status}`, sql`last_error = ${set.lastError}`];
  if (set.status === 'sent') assignments.push(sql`sent_at = ${set.sentAt}`);
  if (set.status === 'pending') assignments.push(sql`next_attempt_at = ${set.nextAttemptAt}`);
  if (uncounted) assignments.push(sql`attempts = attempts - 1`);
  await tx.execute(sql`UPDATE ${sql.identifier(getTableName(table))} SET ${sql.join(assignments, sql`, `)} WHERE id = ${id}`);
}

// ------------------------------------------------------------------ failure streaks

/** A destination with the pause columns (db/schema/outbox.ts's pauseColumns): an alert channel, a tracker tracker. */
export type PausableTable = PgTable & { id: AnyPgColumn; consecutiveFailures: AnyPgColumn };

export interface FailureStreak {
  /** Failed attempts in a row, this one included. */
  failures: number;
  /**
   * This failure paused the destination. True for one caller only, even with two workers failing at once (the row
   * update is atomic), so exactly one of them mails the admins.
   */
  pausedNow: boolean;
}

/** `also`: the feature's own columns to set in the same statement (e.g. when it last delivered). */
export interface StreakOptions {
  also?: SQL;
}

/** A delivered attempt: the destination's failure streak ends. */
export async function recordSuccess(db: DbOrTx, table: PausableTable, id: number, opts: StreakOptions = {}): Promise<void> {
  const name = sql.identifier(getTableName(table));
  // Without columns of its own to set, a destination with no streak is not written at all.
  await db.execute(
    opts.also
      ? sql`UPDATE ${name} SET consecutive_failures = 0, ${opts.also} WHERE id = ${id}`
      : sql`UPDATE ${name} SET consecutive_failures = 0 WHERE id = ${id} AND consecutive_failures <> 0`,
  );
}

/**
 * A failed attempt: the streak grows, and the failure that reaches `pauseAfter` in a row pauses the destination
 * (paused_at = `at`, paused_reason = `reason`). A destination paused already stays paused and keeps its reason.
 */
export async function recordFailure(
  db: DbOrTx,
  table: PausableTable,
  id: number,
  { at, pauseAfter, reason, also }: StreakOptions & { at: Date; pauseAfter: number; reason: string },
): Promise<FailureStreak> {
  const { rows } = await db.execute<{ failures: number; paused_now: boolean }>(sql`
    UPDATE ${sql.identifier(getTableName(table))} SET
      consecutive_failures = consecutive_failures + 1,
      ${also ? sql`${also},` : sql``}
      paused = paused OR consecutive_failures + 1 >= ${pauseAfter},
      paused_at = CASE WHEN NOT paused AND consecutive_failures + 1 >= ${pauseAfter} THEN ${at} ELSE paused_at END,
      paused_reason = CASE WHEN NOT paused AND consecutive_failures + 1 >= ${pauseAfter} THEN ${reason} ELSE paused_reason END
    WHERE id = ${id}
    RETURNING consecutive_failures AS failures, (paused AND paused_at = ${at} AND consecutive_failures = ${pauseAfter}) AS paused_now`);
  return { failures: Number(rows[0]?.failures ?? 0), pausedNow: Boolean(rows[0]?.paused_now) };
}

// ------------------------------------------------------------------ retention

/** Deletes rows sent or given up that were written before `before`; rows still waiting are never touched. Returns how many. */
export async function purgeFinished(db: DbOrTx, table: OutboxTable, before: Date): Promise<number> {
  const { rowCount } = await db.execute(sql`
    DELETE FROM ${sql.identifier(getTableName(table))} WHERE status IN ('sent', 'failed') AND created_at < ${before}`);
  return rowCount ?? 0;
}

/** Deletes delivery-log lines (attempted_at) older than `before`. Returns how many. */
export async function purgeLog(db: DbOrTx, table: Parameters<typeof getTableName>[0], before: Date): Promise<number> {
  const { rowCount } = await db.execute(sql`DELETE FROM ${sql.identifier(getTableName(table))} WHERE attempted_at < ${before}`);
  return rowCount ?? 0;
}
