import { and, eq, sql } from 'drizzle-orm';
import type { AlertDeliveryLogEntry } from '@radar/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { alertChannels, alertDeliveries, alertDeliveryAttempts } from '../../db/schema/index.js';
import { claimDue, releaseClaims, type RecordSpec } from '../../outbox/index.js';

/** Entries the delivery log shows (newest first); older ones are pruned after 30 days by the sweep. */
export const DELIVERY_LOG_LIMIT = 100;

interface LogRow extends Record<string, unknown> {
  id: number;
  delivery_id: number;
  attempted_at: Date | string;
  trigger: string;
  outcome: string;
  status_code: number | null;
  latency_ms: number | null;
  response_excerpt: string;
  error: string | null;
  mail_status: string | null;
  mail_error: string | null;
}

/**
 * The delivery log of a channel: one entry per attempt. An e-mail channel's entries follow their mail through the
 * outbox (queued until the mail server took it, then sent or failed with the server's reason).
 */
export async function deliveryLog(db: DbOrTx, channelId: number, filter: { deliveryId?: number } = {}): Promise<AlertDeliveryLogEntry[]> {
  const { rows } = await db.execute<LogRow>(sql`
    SELECT a.id, a.delivery_id, a.attempted_at, d.trigger, a.outcome, a.status_code, a.latency_ms, a.response_excerpt, a.error,
           m.status::text AS mail_status, m.last_error AS mail_error
    FROM alert_delivery_attempts a
    JOIN alert_deliveries d ON d.id = a.delivery_id
    LEFT JOIN mail_outbox m ON m.id = d.mail_outbox_id
    WHERE a.channel_id = ${channelId} ${filter.deliveryId ? sql`AND a.delivery_id = ${filter.deliveryId}` : sql``}
    ORDER BY a.attempted_at DESC, a.id DESC
    LIMIT ${DELIVERY_LOG_LIMIT}`);
  return rows.map((r) => {
    const mail = r.outcome === 'queued' ? mailOutcome(r.mail_status, r.mail_error) : null;
    return {
      id: Number(r.id),
      deliveryId: Number(r.delivery_id),
      at: new Date(r.attempted_at).toISOString(),
      trigger: r.trigger,
      outcome: (mail?.outcome ?? r.outcome) as AlertDeliveryLogEntry['outcome'],
      statusCode: r.status_code === null ? null : Number(r.status_code),
      latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
      response: mail?.response ?? r.response_excerpt,
      error: mail ? mail.error : r.error,
    };
  });
}

function mailOutcome(status: string | null, error: string | null): { outcome: AlertDeliveryLogEntry['outcome']; response: string; error: string | null } {
  if (status === 'sent') return { outcome: 'sent', response: 'Accepted by the mail server', error: null };
  if (status === 'failed') return { outcome: 'failed', response: 'The mail could not be sent', error };
  if (status === null) return { outcome: 'queued', response: 'Already in the mail outbox (an earlier run queued it)', error: null };
  return { outcome: 'queued', response: 'Waiting in the mail outbox', error };
}

/** Marks a test delivery as being sent now (its one attempt; retried after `retryAt` only if the process dies). */
export async function startTestDelivery(db: DbOrTx, deliveryId: number, retryAt: Date) {
  const [row] = await db
    .update(alertDeliveries)
    .set({ status: 'sending', attempts: 1, nextAttemptAt: retryAt })
    .where(and(eq(alertDeliveries.id, deliveryId), eq(alertDeliveries.status, 'pending')))
    .returning();
  return row;
}

type DeliveryRow = typeof alertDeliveries.$inferSelect;

/** Writes a delivery; null when one with its dedupe key exists (a re-run of the same alert). */
export async function insertDelivery(tx: DbOrTx, values: typeof alertDeliveries.$inferInsert): Promise<number | null> {
  const [row] = await tx
    .insert(alertDeliveries)
    .values(values)
    .onConflictDoNothing({ target: alertDeliveries.dedupeKey })
    .returning({ id: alertDeliveries.id });
  return row?.id ?? null;
}

export async function setDeliveryState(tx: DbOrTx, deliveryId: number, set: Partial<typeof alertDeliveries.$inferInsert>): Promise<void> {
  await tx.update(alertDeliveries).set(set).where(eq(alertDeliveries.id, deliveryId));
}

/** One line of a channel's delivery log. */
export async function insertAttempt(tx: DbOrTx, values: typeof alertDeliveryAttempts.$inferInsert): Promise<void> {
  await tx.insert(alertDeliveryAttempts).values(values);
}

/**
 * Marks up to `limit` due webhook deliveries of unpaused channels 'sending' (attempts + 1, leased for `leaseMs`) and
 * returns them; the shared outbox claim (FOR UPDATE SKIP LOCKED), so two workers never claim the same delivery.
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number, leaseMs: number): Promise<DeliveryRow[]> {
  return claimDue(db, alertDeliveries, {
    now,
    leaseMs,
    limit,
    join: sql`JOIN ${alertChannels} ON ${alertChannels.id} = ${alertDeliveries.channelId}`,
    // An e-mail channel's rows carry no body: their mail_outbox row is the one delivered.
    where: sql`NOT ${alertChannels.paused} AND ${alertDeliveries.body} IS NOT NULL`,
  });
}

/** Claimed deliveries a stopping process will not attempt: due again at once, for another process or the next start. */
export async function releaseDeliveries(db: DbOrTx, now: Date, ids: number[]): Promise<void> {
  await releaseClaims(db, alertDeliveries, ids, now);
}

/** A delivery as the shared outbox records its attempts. */
export const deliveryInOutbox = (row: Pick<DeliveryRow, 'id' | 'attempts'>): NonNullable<RecordSpec['row']> => ({
  table: alertDeliveries,
  id: row.id,
  attempts: row.attempts,
});

/** A channel's failure streak in the shared outbox's terms; every attempt, good or bad, is its last delivery. */
export const channelStreak = (channelId: number, now: Date, pauseAfter: number, reason: string): NonNullable<RecordSpec['streak']> => ({
  table: alertChannels,
  id: channelId,
  pauseAfter,
  reason,
  also: sql`last_delivery_at = ${now}`,
});
