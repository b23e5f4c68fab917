import type { Db } from '../db/client.js';
import type { mailOutbox } from '../db/schema/index.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import { backoffMs as outboxBackoffMs, DEFAULT_RETRY_POLICY, settle, type RetryPolicy } from '../outbox/index.js';
import type { Mailer } from './mailer.js';
import { claimDueMail as claim, contentToSend, finishMail as finish, forgetSealedContent, markSent, NOT_SENT_NO_SMTP, type SentMail } from './outbox.repo.js';

export const DELIVERY_DEFAULTS = {
  /** Mails claimed per statement; they are sent SMTP_POOL_SIZE at a time and recorded together. */
  batchSize: 100,
  /** Sends tried before a mail is marked failed. */
  maxAttempts: 8,
  /** First retry after 1 minute (MAIL_RETRY_BASE_MS), doubling, at most 6 hours apart. */
  baseBackoffMs: 60_000,
  maxBackoffMs: 6 * 60 * 60 * 1000,
  /** A mail left in 'sending' this long (the process died mid-send) is claimed again. */
  sendingLeaseMs: 10 * 60 * 1000,
};

/** Waits between tries to record "sent" for a mail the SMTP server accepted (the send itself is not repeated). */
const MARK_RETRY_DELAYS_MS = [100, 300, 1000, 3000];

/** Written to last_error when no SMTP server is configured: the mail is kept, logged, and never retried. */
export { NOT_SENT_NO_SMTP };

/**
 * Mails the SMTP server accepted whose "sent" could not be recorded yet (the database was unreachable). Kept by the
 * mail service for the life of the process and recorded before anything else is claimed, so they are never sent
 * again by this process.
 */
export type UnrecordedSends = Map<number, { providerMessageId: string; sentAt: Date }>;

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** null when SMTP_URL is not set. */
  mailer: Mailer | null;
  /** Decrypts sealed (sensitive) mail just before it is sent (sealed-content.ts). */
  outboxKey: Buffer;
  batchSize?: number;
  maxAttempts?: number;
  /** MAIL_RETRY_BASE_MS. */
  baseBackoffMs?: number;
  /** Claim only mail of this priority or more urgent (0: the interactive lane). */
  maxPriority?: number;
  /** Only these outbox rows (e.g. the one mail an admin is waiting for), when due. */
  onlyIds?: number[];
  unrecorded?: UnrecordedSends;
  /** Message-ID domain, so a mail sent twice despite everything carries the same id (receivers may fold them). */
  messageIdDomain?: string;
  sleep?: (ms: number) => Promise<void>;
}

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
  /** Written to the log because no SMTP server is configured. */
  logged: number;
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** The outbox's retry schedule with the mail's base (MAIL_RETRY_BASE_MS) and cap. */
const retryPolicy = (deps: Pick<DeliveryDeps, 'baseBackoffMs' | 'maxAttempts'>): RetryPolicy => ({
  ...DEFAULT_RETRY_POLICY,
  baseMs: deps.baseBackoffMs ?? DELIVERY_DEFAULTS.baseBackoffMs,
  maxMs: DELIVERY_DEFAULTS.maxBackoffMs,
  maxAttempts: deps.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts,
});

export function backoffMs(attempts: number, base = DELIVERY_DEFAULTS.baseBackoffMs): number {
  return outboxBackoffMs(attempts, { baseMs: base, maxMs: DELIVERY_DEFAULTS.maxBackoffMs });
}

export const outboxMessageId = (row: Pick<OutboxRow, 'id' | 'createdAt'>, domain: string) => `<radar-${row.id}-${row.createdAt.getTime()}@${domain}>`;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Claims due mails (FOR UPDATE SKIP LOCKED, so several workers never send the same mail) in priority order, sends
 * each and records the outcome. A claimed mail is 'sending' with a lease in next_attempt_at: if the process dies
 * before recording the outcome, the mail is claimed again once the lease ends.
 *
 * Delivery guarantee (docs/notifications.md): every mail is sent at least once; it is sent twice only if the SMTP
 * server accepted it and the process then died (or lost the database for longer than the lease) before recording
 * it. When recording fails, the record is retried — never the send.
 *
 * A new mail (attempts = 0) is due at once whatever its timestamp; a retry waits for next_attempt_at.
 */
export async function deliverDueMail(deps: DeliveryDeps): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0, logged: 0 };
  const batchSize = deps.batchSize ?? DELIVERY_DEFAULTS.batchSize;
  const policy = retryPolicy(deps);
  if (deps.unrecorded?.size) await recordUnrecorded(deps.db, deps.unrecorded);
  const now = deps.clock.now();
  const claimed = await claim(deps.db, now, DELIVERY_DEFAULTS.sendingLeaseMs, batchSize, {
    maxPriority: deps.maxPriority ?? null,
    onlyIds: deps.onlyIds,
    skip: deps.unrecorded,
  });
  const accepted: SentMail[] = [];

  async function deliverOne(row: OutboxRow): Promise<void> {
    const prepared = contentToSend(row, deps.outboxKey, now);
    if ('refused' in prepared) {
      await finish(deps.db, row.id, { status: 'failed', lastError: prepared.refused, sealedContent: null });
      deps.log.warn({ outboxId: row.id, kind: row.kind, reason: prepared.refused }, 'mail not sent');
      result.failed++;
      return;
    }
    const { content } = prepared;
    if (!deps.mailer) {
      deps.log.info(
        { outboxId: row.id, kind: row.kind, to: row.toAddress, subject: content.subject, mailText: content.text },
        `mail not sent (SMTP_URL is not set); its text follows:\n${content.text}`,
      );
      // A sealed mail keeps its (encrypted) content until its code expires, like one still waiting to be sent: the
      // code was handed to the log instead, and the cleanup job deletes the ciphertext at its expiry.
      await finish(deps.db, row.id, { status: 'failed', lastError: NOT_SENT_NO_SMTP, attempts: 0 });
      result.logged++;
      return;
    }
    let info: { messageId: string };
    try {
      const messageId = deps.messageIdDomain ? outboxMessageId(row, deps.messageIdDomain) : undefined;
      info = await deps.mailer.send({ to: row.toAddress, ...content, headers: row.headers, messageId });
    } catch (err) {
      const lastError = String((err as Error)?.message ?? err).slice(0, 1000);
      // Every refusal is retried (SMTP gives no reliable permanent/temporary split) until the last attempt.
      const settled = settle({ outcome: 'retrying', error: lastError }, row, deps.clock.now(), policy);
      if (settled.set.status === 'pending') {
        await finish(deps.db, row.id, settled.set);
        deps.log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, nextAttemptAt: settled.set.nextAttemptAt, err }, 'mail not sent; will retry');
        result.retrying++;
      } else {
        await finish(deps.db, row.id, { ...settled.set, sealedContent: null });
        deps.log.error({ outboxId: row.id, kind: row.kind, attempts: row.attempts, err }, 'mail failed for good');
        result.failed++;
      }
      return;
    }
    const sent = { id: row.id, providerMessageId: info.messageId, sentAt: deps.clock.now() };
    // A code or link is marked sent at once (someone is waiting and its sealed content is deleted next); the rest of
    // the batch is recorded together once its sends are done.
    if (row.sealedContent) {
      await recordSent(deps, [sent]);
      // Separate from the mark, so the sent mark never depends on it; purgeSealedContent catches a failure here.
      await forgetSealedContent(deps.db, row.id).catch((err) =>
        deps.log.warn({ outboxId: row.id, err }, 'could not delete a sent mail’s sealed content yet; the cleanup job will'),
      );
    } else {
      accepted.push(sent);
    }
    deps.log.info({ outboxId: row.id, kind: row.kind, messageId: info.messageId }, 'mail sent');
    result.sent++;
  }

  // As many sends at once as the mailer has connections, each taking the batch's next mail in claim order (most
  // urgent first); one connection means one mail after the other.
  let next = 0;
  const lanes = Math.max(1, Math.min(deps.mailer?.connections ?? 1, claimed.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let row = claimed[next++]; row; row = claimed[next++]) await deliverOne(row);
    }),
  );
  if (accepted.length) await recordSent(deps, accepted);
  return result;
}

/**
 * Records accepted mails as sent (one statement for the batch), retrying a few times. If the database still refuses,
 * the mails are kept in `unrecorded` (recorded first thing on the next run) and skipped by this process's claims:
 * sending one again would be a duplicate in the recipient's inbox.
 */
async function recordSent(deps: DeliveryDeps, sent: SentMail[]): Promise<void> {
  const sleep = deps.sleep ?? pause;
  // One try, then one retry per delay; null marks the last try.
  for (const retryInMs of [...MARK_RETRY_DELAYS_MS, null]) {
    try {
      await markSent(deps.db, sent);
      for (const mail of sent) deps.unrecorded?.delete(mail.id);
      return;
    } catch (err) {
      const outboxIds = sent.map((m) => m.id);
      if (retryInMs === null) {
        for (const { id, ...mail } of sent) deps.unrecorded?.set(id, mail);
        deps.log.warn({ outboxIds, err }, 'mail sent, but recording it failed; will record it again (it is not sent again)');
        return;
      }
      deps.log.warn({ outboxIds, err, retryInMs }, 'mail sent, but recording it failed; retrying the record');
      await sleep(retryInMs);
    }
  }
}

async function recordUnrecorded(db: Db, unrecorded: UnrecordedSends): Promise<void> {
  const sent = [...unrecorded].map(([id, mail]) => ({ id, ...mail }));
  await markSent(db, sent);
  for (const { id } of sent) unrecorded.delete(id);
}
