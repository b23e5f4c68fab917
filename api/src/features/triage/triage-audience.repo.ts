import { and, eq, isNull, not, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { moderatorActivities, triageNotifications, triageRecords } from '../../db/schema/index.js';
import { userSeesTenant } from '../tenants/tenant-audience.js';
import { OPEN_STATES } from './triage-views.js';

/**
 * Who may take part in a triage record: the people who may see its tenant (`userSeesTenant`). These are the
 * recipient-side twins of `visibleTriageRecord`: an owner, a mentioned user, a reminder's or an assignment mail's
 * recipient must pass them, read at the moment the thing happens.
 */
export { userSeesTenant };

/** Whether user `user` may see triage record `tr` (SQL). */
export const userSeesRecord = (user: SQL, tr: SQL = sql.raw('tr')): SQL => userSeesTenant(user, sql`${tr}.tenant_id`);

/** Of `userIds`, those who may see the tenant (null: no tenant, everyone). */
export async function usersSeeingTenant(db: DbOrTx, tenantId: number | null, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  // raw: reads the ids given (users or not) from unnest(…); drizzle's from() takes a set-returning function only as raw SQL.
  const { rows } = await db.execute<{ id: number }>(sql`
    SELECT u.id FROM unnest(${sql.param([...userIds])}::int[]) AS u(id)
    WHERE ${userSeesTenant(sql`u.id`, sql`${tenantId}::int`)}`);
  return new Set(rows.map((r) => Number(r.id)));
}

const ITEM_TYPES = { roadmap: 'roadmap', messages: 'message_center', health: 'service_health' } as const;

/**
 * Gives back the open records whose owner may no longer see them (a grant revoked, a tenant made private, an admin
 * role taken away): the owner is cleared, each record gets an activity entry saying why, and the mails not yet sent
 * about them to people who may not see them are dropped. `which` narrows the look to one user or one tenant.
 * Returns how many records were unassigned. Runs in the caller's transaction.
 */
export async function releaseUnseenRecords(tx: DbOrTx, which: { userId: number } | { tenantId: number } | 'all', now: Date, reason: string): Promise<number> {
  const narrow = which === 'all' ? sql`true` : 'userId' in which ? sql`tr.owner_id = ${which.userId}` : sql`tr.tenant_id = ${which.tenantId}`;
  // raw: UPDATE … FROM two tables tied to the record in WHERE; drizzle joins the second in an ON that names the
  // updated table, which PostgreSQL refuses.
  const { rows } = await tx.execute<{
    id: number;
    ownerEmail: string;
    tenantId: number | null;
    tenantName: string | null;
    externalId: string;
    title: string;
    source: keyof typeof ITEM_TYPES;
  }>(sql`
    UPDATE triage_records tr SET owner_id = NULL, updated_at = ${now}, rule_fields = tr.rule_fields - 'owner'
    FROM users o, items i
    WHERE o.id = tr.owner_id AND i.id = tr.item_id AND ${narrow}
      AND tr.state IN ${OPEN_STATES} AND NOT ${userSeesRecord(sql`tr.owner_id`)}
    RETURNING tr.id, o.email AS "ownerEmail", tr.tenant_id AS "tenantId",
      (SELECT t.name FROM tenants t WHERE t.id = tr.tenant_id) AS "tenantName", i.external_id AS "externalId", i.title, i.source`);
  if (rows.length > 0) {
    await tx.insert(moderatorActivities).values(
      rows.map((r) => ({
        userId: null,
        userEmail: 'M365 Radar',
        actionType: 'triage_changed',
        itemType: ITEM_TYPES[r.source],
        itemId: r.externalId,
        itemTitle: r.title,
        details: {
          ...(r.tenantId !== null ? { tenant: { id: r.tenantId, name: r.tenantName ?? `Tenant ${r.tenantId}` } } : {}),
          changes: [{ field: 'owner', before: r.ownerEmail, after: null }],
          reason,
        },
        recordedBy: 'server',
        createdAt: now,
      })),
    );
  }
  await dropUnseenNotices(tx, which === 'all' || 'tenantId' in which ? undefined : which.userId, now);
  return rows.length;
}

/** Marks skipped every notice not yet sent (to the user, or to anyone) about a record its recipient may not see. */
export async function dropUnseenNotices(tx: DbOrTx, userId: number | undefined, now: Date): Promise<void> {
  const n = alias(triageNotifications, 'n');
  const tr = alias(triageRecords, 'tr');
  await tx
    .update(n)
    .set({ sentAt: now, skipped: true })
    .from(tr)
    .where(and(eq(tr.id, n.recordId), isNull(n.sentAt), userId === undefined ? undefined : eq(n.userId, userId), not(userSeesRecord(sql`n.user_id`))));
}
