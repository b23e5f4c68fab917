import { sql } from 'drizzle-orm';
import type { AlertDeliveryLogEntry } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';

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
