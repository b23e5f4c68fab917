import { sql } from 'drizzle-orm';
import type { AlertItem } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { AccessNarrowed } from '../../lib/access-narrowed.js';
import { userSeesTenant } from '../tenants/tenant-audience.js';

/** The row ids of the posts an alert's items name (source and external id); posts no longer stored are left out. */
export async function itemRowIdsOf(tx: DbOrTx, items: readonly Pick<AlertItem, 'source' | 'externalId'>[]): Promise<number[]> {
  if (items.length === 0) return [];
  const { rows } = await tx.execute<{ id: number }>(sql`
    SELECT i.id FROM items i
    JOIN unnest(${sql.param(items.map((x) => x.source))}::text[], ${sql.param(items.map((x) => x.externalId))}::text[]) AS r(source, external_id)
      ON i.source::text = r.source AND i.external_id = r.external_id
    ORDER BY i.id`);
  return rows.map((r) => Number(r.id));
}

export const WITHDRAWN_ALERT_ERROR = 'Not sent: the channel’s owner may no longer see a post it carries (a private tenant’s)';

/**
 * Withdraws the alert deliveries not yet made whose channel owner may no longer see one of the posts they carry (a
 * grant revoked, a tenant made private, the Admin role taken away): a webhook delivery waiting for its first try or
 * a retry fails with WITHDRAWN_ALERT_ERROR in its log, and an e-mail alert still in the mail outbox is failed there
 * too. A post is seen when it has no tenant or one of its tenants is one the owner may see (`userSeesTenant`).
 * `which` narrows the look to one owner. Runs in the caller's transaction; returns how many were withdrawn.
 */
export async function withdrawUnseenAlerts(tx: DbOrTx, which: { userId: number } | 'all', now: Date): Promise<number> {
  const narrow = which === 'all' ? sql`true` : sql`c.owner_user_id = ${which.userId}`;
  const { rows } = await tx.execute<{ id: number; channel_id: number; mail_outbox_id: number | null }>(sql`
    UPDATE alert_deliveries d SET status = 'failed', last_error = ${WITHDRAWN_ALERT_ERROR}
    FROM alert_channels c
    WHERE c.id = d.channel_id AND ${narrow} AND d.trigger <> 'test'
      AND (d.status = 'pending' OR (d.mail_outbox_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM mail_outbox m WHERE m.id = d.mail_outbox_id AND m.status = 'pending')))
      AND EXISTS (
        SELECT 1 FROM items i WHERE i.id = ANY(d.item_ids) AND i.tenant_ids <> '{}'::int[]
          AND NOT EXISTS (SELECT 1 FROM unnest(i.tenant_ids) AS it(id) WHERE ${userSeesTenant(sql`c.owner_user_id`, sql`it.id`)}))
    RETURNING d.id, d.channel_id, d.mail_outbox_id`);
  if (rows.length === 0) return 0;
  const mailIds = rows.map((r) => r.mail_outbox_id).filter((id): id is number => id !== null);
  if (mailIds.length > 0) {
    await tx.execute(sql`
      UPDATE mail_outbox SET status = 'failed', last_error = ${WITHDRAWN_ALERT_ERROR}
      WHERE id = ANY(${sql.param(mailIds.map(Number))}::int[]) AND status = 'pending'`);
  }
  await tx.execute(sql`
    INSERT INTO alert_delivery_attempts (delivery_id, channel_id, attempted_at, outcome, error)
    SELECT * FROM unnest(${sql.param(rows.map((r) => Number(r.id)))}::int[], ${sql.param(rows.map((r) => Number(r.channel_id)))}::int[])
      AS w(delivery_id, channel_id), LATERAL (SELECT ${now}::timestamptz, 'failed', ${WITHDRAWN_ALERT_ERROR}) AS x`);
  return rows.length;
}

/** Alerts' part when access narrows: deliveries not yet made that carry posts their owner may no longer see. */
export async function withdrawOnAccessNarrowed(tx: DbOrTx, narrowed: AccessNarrowed, now: Date): Promise<void> {
  await withdrawUnseenAlerts(tx, 'userId' in narrowed ? { userId: narrowed.userId } : 'all', now);
}
