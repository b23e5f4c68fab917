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
export const WITHDRAWN_RELEVANCE_ERROR = 'Not sent: the channel’s owner may no longer see a tenant whose relevance it tells (a private tenant’s)';

/**
 * Withdraws the alert deliveries not yet made whose channel owner may no longer see one of the posts they carry, or
 * one of the tenants whose relevance they tell ("Now High relevance for Fabrikam": its usage) — a grant revoked, a
 * tenant made private, the Admin role taken away: a webhook delivery waiting for its first try or a retry fails with
 * WITHDRAWN_ALERT_ERROR (or WITHDRAWN_RELEVANCE_ERROR) in its log, and an e-mail alert still in the mail outbox is
 * failed there too. A post is seen when it has no tenant or one of its tenants is one the owner may see
 * (`userSeesTenant`). `which` narrows the look to one owner. Runs in the caller's transaction; returns how many were
 * withdrawn.
 */
export async function withdrawUnseenAlerts(tx: DbOrTx, which: { userId: number } | 'all', now: Date): Promise<number> {
  const narrow = which === 'all' ? sql`true` : sql`c.owner_user_id = ${which.userId}`;
  const unseenPost = sql`EXISTS (
        SELECT 1 FROM items i WHERE i.id = ANY(d.item_ids) AND i.tenant_ids <> '{}'::int[]
          AND NOT EXISTS (SELECT 1 FROM unnest(i.tenant_ids) AS it(id) WHERE ${userSeesTenant(sql`c.owner_user_id`, sql`it.id`)}))`;
  const unseenTenant = sql`EXISTS (
        SELECT 1 FROM unnest(d.relevance_tenant_ids) AS rt(id) WHERE NOT ${userSeesTenant(sql`c.owner_user_id`, sql`rt.id`)})`;
  const { rows } = await tx.execute<{ id: number; channel_id: number; mail_outbox_id: number | null; last_error: string }>(sql`
    UPDATE alert_deliveries d
    SET status = 'failed', last_error = CASE WHEN ${unseenPost} THEN ${WITHDRAWN_ALERT_ERROR} ELSE ${WITHDRAWN_RELEVANCE_ERROR} END
    FROM alert_channels c
    WHERE c.id = d.channel_id AND ${narrow} AND d.trigger <> 'test'
      AND (d.status = 'pending' OR (d.mail_outbox_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM mail_outbox m WHERE m.id = d.mail_outbox_id AND m.status = 'pending')))
      AND (${unseenPost} OR ${unseenTenant})
    RETURNING d.id, d.channel_id, d.mail_outbox_id, d.last_error`);
  if (rows.length === 0) return 0;
  for (const error of new Set(rows.map((r) => r.last_error))) {
    const ids = rows.filter((r) => r.last_error === error && r.mail_outbox_id !== null).map((r) => Number(r.mail_outbox_id));
    if (ids.length === 0) continue;
    await tx.execute(sql`
      UPDATE mail_outbox SET status = 'failed', last_error = ${error}
      WHERE id = ANY(${sql.param(ids)}::int[]) AND status = 'pending'`);
  }
  await tx.execute(sql`
    INSERT INTO alert_delivery_attempts (delivery_id, channel_id, attempted_at, outcome, error)
    SELECT w.delivery_id, w.channel_id, ${now}::timestamptz, 'failed', w.error
    FROM unnest(${sql.param(rows.map((r) => Number(r.id)))}::int[], ${sql.param(rows.map((r) => Number(r.channel_id)))}::int[],
      ${sql.param(rows.map((r) => r.last_error))}::text[]) AS w(delivery_id, channel_id, error)`);
  return rows.length;
}

/** Alerts' part when access narrows: deliveries not yet made that carry posts their owner may no longer see. */
export async function withdrawOnAccessNarrowed(tx: DbOrTx, narrowed: AccessNarrowed, now: Date): Promise<void> {
  await withdrawUnseenAlerts(tx, 'userId' in narrowed ? { userId: narrowed.userId } : 'all', now);
}
