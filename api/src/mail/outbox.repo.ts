import { and, eq, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import { mailOutbox } from '../db/schema/index.js';
import type { Db, DbOrTx } from '../db/client.js';
import { claimDue } from '../outbox/index.js';
import { openContent, SEALED_PLACEHOLDER, sealContent, type MailContent } from './sealed-content.js';
import { priorityOf } from './priority.js';

export interface OutgoingMail {
  /** What the mail is for ('sign-in-code', 'item-change', 'weekly-digest', …): for logs and the outbox view. */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /**
   * Extra headers, e.g. `List-Unsubscribe: <https://…/unsubscribe?token=…>` and
   * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` for subscription mails.
   */
  headers?: Record<string, string>;
  /** Enqueueing the same key twice keeps the first mail only (e.g. `digest:<subscriber>:<week>`). */
  dedupeKey?: string;
  /** When the mail was caused (the injected clock); defaults to the database's now(). */
  createdAt?: Date;
  /**
   * The mail carries a secret (a sign-in code, a confirmation link) that stops working at `expiresAt`: its content is
   * stored encrypted, sent only before then, and deleted afterwards (see sealed-content.ts).
   */
  sensitive?: { expiresAt: Date };
  /** Delivery order (priority.ts); by default the kind's. */
  priority?: number;
}

/** Written to last_error of a mail kept in the log because SMTP_URL is not set. */
export const NOT_SENT_NO_SMTP = 'Not sent: SMTP_URL is not set. The mail was written to the log instead.';
/** Written to last_error of a sealed mail that could not be sent before its secret expired. */
export const NOT_SENT_EXPIRED = 'Not sent: its code or link expired before it could be delivered; the content was deleted.';
/** Written to last_error of a sealed mail that no longer decrypts (the installation secret changed). */
export const NOT_SENT_UNREADABLE = 'Not sent: the encrypted content cannot be read (was SESSION_SECRET changed?); the content was deleted.';

/**
 * Writes a mail to the transactional outbox. Call it with the transaction that makes the change the mail is about,
 * so the mail exists if and only if the change committed; the deliver-mail job sends it afterwards.
 * A `sensitive` mail needs the outbox key (services.mail.enqueue passes it): it is never stored in clear.
 * Returns the outbox id, or null when a mail with the same dedupe key exists already.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail, opts: { key?: Buffer } = {}): Promise<number | null> {
  let content: StoredContent = { subject: mail.subject, html: mail.html, text: mail.text, sealedContent: null, contentExpiresAt: null };
  if (mail.sensitive) {
    if (!opts.key) throw new Error(`a sensitive mail (${mail.kind}) needs the outbox key: enqueue it through services.mail`);
    content = { ...SEALED_PLACEHOLDER, sealedContent: sealContent(opts.key, mail), contentExpiresAt: mail.sensitive.expiresAt };
  }
  const rows = await db
    .insert(mailOutbox)
    .values(outboxRow(mail, content))
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return rows[0]?.id ?? null;
}

type StoredContent = MailContent & { sealedContent: string | null; contentExpiresAt: Date | null };

/** The outbox row of a mail whose content is stored as `content` (in clear, or sealed): one mapping for every writer. */
function outboxRow(mail: OutgoingMail, content: StoredContent): typeof mailOutbox.$inferInsert {
  return {
    kind: mail.kind,
    toAddress: mail.to,
    ...content,
    headers: mail.headers ?? {},
    dedupeKey: mail.dedupeKey ?? null,
    priority: mail.priority ?? priorityOf(mail.kind),
    ...(mail.createdAt ? { createdAt: mail.createdAt, nextAttemptAt: mail.createdAt } : {}),
  };
}

/**
 * Writes many mails without secrets to the outbox in one statement (a digest run's batch), like enqueueMail each.
 * Answers the outbox id per dedupe key of the mails written; one whose key exists already is left out.
 */
export async function enqueueMails(db: DbOrTx, mails: readonly (OutgoingMail & { dedupeKey: string })[]): Promise<Map<string, number>> {
  if (mails.length === 0) return new Map();
  if (mails.some((m) => m.sensitive)) throw new Error('enqueueMails takes no sensitive mail: enqueue it through services.mail');
  const rows = await db
    .insert(mailOutbox)
    .values(mails.map((mail) => outboxRow(mail, { subject: mail.subject, html: mail.html, text: mail.text, sealedContent: null, contentExpiresAt: null })))
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id, dedupeKey: mailOutbox.dedupeKey });
  return new Map(rows.map((r) => [r.dedupeKey ?? '', r.id]));
}

type ContentColumns = Pick<typeof mailOutbox.$inferSelect, 'subject' | 'html' | 'text' | 'sealedContent' | 'contentExpiresAt'>;

/**
 * What to send for an outbox row, decrypted just before sending: the content, or why it must not be sent
 * (a sealed mail past its expiry, or one that no longer decrypts).
 */
export function contentToSend(row: ContentColumns, key: Buffer, now: Date): { content: MailContent } | { refused: string } {
  if (row.sealedContent === null) {
    if (row.contentExpiresAt !== null) return { refused: NOT_SENT_EXPIRED };
    return { content: { subject: row.subject, html: row.html, text: row.text } };
  }
  if (row.contentExpiresAt && row.contentExpiresAt.getTime() <= now.getTime()) return { refused: NOT_SENT_EXPIRED };
  try {
    return { content: openContent(key, row.sealedContent) };
  } catch {
    return { refused: NOT_SENT_UNREADABLE };
  }
}

/** Deletes the encrypted content of one mail (after it was sent or given up). */
export async function forgetSealedContent(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ sealedContent: null })
    .where(and(sql`${mailOutbox.id} = ${id}`, isNotNull(mailOutbox.sealedContent)));
}

/**
 * The safety net for sealed content: deletes it from every mail that was sent or failed, and from every mail whose
 * secret expired (a still-pending one is marked failed, it would be useless). Returns how many rows were cleared.
 */
export async function purgeSealedContent(db: DbOrTx, now: Date): Promise<number> {
  const expired = await db
    .update(mailOutbox)
    .set({ sealedContent: null, status: 'failed', lastError: NOT_SENT_EXPIRED })
    .where(and(isNotNull(mailOutbox.sealedContent), lte(mailOutbox.contentExpiresAt, now), inArray(mailOutbox.status, ['pending'])))
    .returning({ id: mailOutbox.id });
  const done = await db
    .update(mailOutbox)
    .set({ sealedContent: null })
    .where(
      and(
        isNotNull(mailOutbox.sealedContent),
        // A mail only logged for want of SMTP keeps its ciphertext until its code expires (delivery.ts).
        or(
          eq(mailOutbox.status, 'sent'),
          and(eq(mailOutbox.status, 'failed'), ne(mailOutbox.lastError, NOT_SENT_NO_SMTP)),
          lte(mailOutbox.contentExpiresAt, now),
        ),
      ),
    )
    .returning({ id: mailOutbox.id });
  return expired.length + done.length;
}

export interface ClaimFilter {
  maxPriority: number | null;
  onlyIds?: number[];
  /** Sent but not yet recorded: never claimed again by this process. */
  skip?: ReadonlyMap<number, unknown>;
}

/**
 * Marks up to `limit` due mails 'sending' (attempts + 1, leased for `leaseMs`), most urgent first, and returns them
 * (the shared outbox claim: SKIP LOCKED, so two workers never send the same mail). A mail never tried is due at once
 * whatever its timestamp; a retry waits for next_attempt_at.
 */
export async function claimDueMail(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
  { maxPriority, onlyIds, skip }: ClaimFilter,
): Promise<(typeof mailOutbox.$inferSelect)[]> {
  return claimDue(db, mailOutbox, {
    now,
    leaseMs,
    limit,
    newRowsDueAtOnce: true,
    where: maxPriority !== null ? sql`${mailOutbox.priority} <= ${maxPriority}` : undefined,
    orderBy: [mailOutbox.priority, mailOutbox.id],
    onlyIds,
    skipIds: skip?.size ? [...skip.keys()] : undefined,
  });
}

export async function finishMail(db: Db, id: number, set: Partial<typeof mailOutbox.$inferInsert>): Promise<void> {
  await db
    .update(mailOutbox)
    .set(set)
    .where(sql`${mailOutbox.id} = ${id}`);
}

/** An accepted mail to record as sent. */
export interface SentMail {
  id: number;
  providerMessageId: string;
  sentAt: Date;
}

/** Marks accepted mails sent, in one statement. */
export async function markSent(db: Db, sent: readonly SentMail[]): Promise<void> {
  if (sent.length === 0) return;
  await db.execute(sql`
    UPDATE mail_outbox AS o SET status = 'sent', provider_message_id = s.message_id, sent_at = s.sent_at, last_error = NULL
    FROM unnest(${sql.param(sent.map((m) => m.id))}::int[], ${sql.param(sent.map((m) => m.providerMessageId))}::text[],
      ${sql.param(sent.map((m) => m.sentAt.toISOString()))}::timestamptz[]) AS s(id, message_id, sent_at)
    WHERE o.id = s.id`);
}
