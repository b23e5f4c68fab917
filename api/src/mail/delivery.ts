import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import type { Mailer } from './mailer.js';

export const DELIVERY_DEFAULTS = {
  batchSize: 20,
  /** Sends tried before a mail is marked failed. */
  maxAttempts: 8,
  /** First retry after 1 minute, doubling, at most 6 hours apart. */
  baseBackoffMs: 60_000,
  maxBackoffMs: 6 * 60 * 60 * 1000,
  /** A mail left in 'sending' this long (the process died mid-send) is claimed again. */
  sendingLeaseMs: 10 * 60 * 1000,
};

/** Written to last_error when no SMTP server is configured: the mail is kept, logged, and never retried. */
export const NOT_SENT_NO_SMTP = 'Not sent: SMTP_URL is not set. The mail was written to the log instead.';

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** null when SMTP_URL is not set. */
  mailer: Mailer | null;
  batchSize?: number;
  maxAttempts?: number;
  /** Only these outbox rows (e.g. the one mail an admin is waiting for), when due. */
  onlyIds?: number[];
}

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
  /** Written to the log because no SMTP server is configured. */
  logged: number;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

export function backoffMs(attempts: number): number {
  return Math.min(DELIVERY_DEFAULTS.baseBackoffMs * 2 ** Math.max(0, attempts - 1), DELIVERY_DEFAULTS.maxBackoffMs);
}

/**
 * Claims due mails (FOR UPDATE SKIP LOCKED, so several workers never send the same mail), sends each and records
 * the outcome. A claimed mail is 'sending' with a lease in next_attempt_at: if the process dies before recording
 * the outcome, the mail is claimed again once the lease ends (at-least-once delivery).
 *
 * A new mail (attempts = 0) is due at once whatever its timestamp; a retry waits for next_attempt_at.
 */
export async function deliverDueMail(deps: DeliveryDeps): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0, logged: 0 };
  const batchSize = deps.batchSize ?? DELIVERY_DEFAULTS.batchSize;
  const maxAttempts = deps.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts;
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + DELIVERY_DEFAULTS.sendingLeaseMs);
  const claimed = await claim(deps.db, now, leaseUntil, batchSize, deps.onlyIds);
  for (const row of claimed) {
    if (!deps.mailer) {
      deps.log.info(
        { outboxId: row.id, kind: row.kind, to: row.toAddress, subject: row.subject, mailText: row.text },
        `mail not sent (SMTP_URL is not set); its text follows:\n${row.text}`,
      );
      await finish(deps.db, row.id, { status: 'failed', lastError: NOT_SENT_NO_SMTP, attempts: 0 });
      result.logged++;
      continue;
    }
    try {
      const info = await deps.mailer.send({ to: row.toAddress, subject: row.subject, html: row.html, text: row.text, headers: row.headers });
      await finish(deps.db, row.id, { status: 'sent', providerMessageId: info.messageId, sentAt: deps.clock.now(), lastError: null });
      deps.log.info({ outboxId: row.id, kind: row.kind, messageId: info.messageId }, 'mail sent');
      result.sent++;
    } catch (err) {
      const lastError = String((err as Error)?.message ?? err).slice(0, 1000);
      if (row.attempts >= maxAttempts) {
        await finish(deps.db, row.id, { status: 'failed', lastError });
        deps.log.error({ outboxId: row.id, kind: row.kind, attempts: row.attempts, err }, 'mail failed for good');
        result.failed++;
      } else {
        const nextAttemptAt = new Date(deps.clock.now().getTime() + backoffMs(row.attempts));
        await finish(deps.db, row.id, { status: 'pending', lastError, nextAttemptAt });
        deps.log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, nextAttemptAt, err }, 'mail not sent; will retry');
        result.retrying++;
      }
    }
  }
  return result;
}

/** Marks up to `limit` due mails 'sending' (attempts + 1) and returns them. */
async function claim(db: Db, now: Date, leaseUntil: Date, limit: number, onlyIds?: number[]): Promise<OutboxRow[]> {
  const only = onlyIds ? sql`AND id IN (${sql.join(onlyIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const { rows } = await db.execute<{ id: number }>(sql`
    UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM mail_outbox
      WHERE ((status = 'pending' AND (attempts = 0 OR next_attempt_at <= ${now}))
         OR (status = 'sending' AND next_attempt_at <= ${now})) ${only}
      ORDER BY id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id`);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  return db.query.mailOutbox.findMany({ where: (t, { inArray }) => inArray(t.id, ids), orderBy: (t, { asc }) => asc(t.id) });
}

async function finish(db: Db, id: number, set: Partial<typeof mailOutbox.$inferInsert>): Promise<void> {
  await db.update(mailOutbox).set(set).where(sql`${mailOutbox.id} = ${id}`);
}
