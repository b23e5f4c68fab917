import { mailOutbox } from '../db/schema.js';
import type { DbOrTx } from '../db/client.js';
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
  /** Delivery order (priority.ts); by default the kind's. */
  priority?: number;
}

/**
 * Writes a mail to the transactional outbox. Call it with the transaction that makes the change the mail is about,
 * so the mail exists if and only if the change committed; the deliver-mail job sends it afterwards.
 * Returns the outbox id, or null when a mail with the same dedupe key exists already.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<number | null> {
  const rows = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      headers: mail.headers ?? {},
      dedupeKey: mail.dedupeKey ?? null,
      priority: mail.priority ?? priorityOf(mail.kind),
      ...(mail.createdAt ? { createdAt: mail.createdAt, nextAttemptAt: mail.createdAt } : {}),
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return rows[0]?.id ?? null;
}
