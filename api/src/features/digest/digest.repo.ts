import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { ROLE_NAMES } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { appState, digestDeliveries, digestSubscribers, itemHistory, items, roles, tenantAccess, userRoles } from '../../db/schema/index.js';
import { unifiedItemColumns, type UnifiedItemRow } from '../items/item-mapper.js';
import { returned } from '../../db/returned.js';
import { tenantCondition, type TenantScope } from '../items/item-query.js';
import { maxRelevanceSql } from '../items/relevance-sql.js';
import { visibleTenant } from '../items/visible-tenant.js';
import { changeSeenSql } from '../items/tenant-own-fields.js';

export type DigestSubscriberRow = typeof digestSubscribers.$inferSelect;

/** Hard cap per list, far above a real week (the roadmap adds ~40 items a week); keeps a mail bounded. */
export const DIGEST_LIST_CAP = 500;

/** An hour between publication and last update before a Message Center post counts as updated. */
const UPDATED_MESSAGE_MIN_GAP = sql`interval '1 hour'`;

/**
 * The week's lists are read for a tenant scope: a subscriber's account's (the posts and issues of the tenants it may
 * see), or a guest's for a visitor's address and the public page (the roadmap, posts and issues of public tenants,
 * and those of no tenant). Subscriber reads and writes take no scope. `byRelevance` (an account's digest) puts each
 * list's items most relevant to the scope's tenants first (High … Unknown, then none), in the list's own order
 * among equals.
 */
export function createDigestRepo(db: DbOrTx, scope?: TenantScope, opts: { byRelevance?: boolean } = {}) {
  const publicOnly = tenantCondition(scope) ?? sql`true`;
  const first = opts.byRelevance && scope ? [sql`${maxRelevanceSql({ tenantScope: scope })} desc nulls last`] : [];
  // A change of only a tenant's own fields, recorded by a run of a tenant the reader may not see, is no change to them.
  const seen = changeSeenSql(scope, sql.raw('item_history'));
  const inWindow = (column: typeof items.createdDate, start: Date, end: Date) => sql`${column} >= ${start} and ${column} < ${end}`;
  const changedInWindow = (start: Date, end: Date) =>
    sql`exists (select 1 from ${itemHistory} where ${itemHistory.itemId} = ${items.id} and ${itemHistory.changeType} = 'changed' and ${itemHistory.changeDate} >= ${start} and ${itemHistory.changeDate} < ${end} and ${seen})`;
  const lastChange = sql`(select max(${itemHistory.changeDate}) from ${itemHistory} where ${itemHistory.itemId} = ${items.id} and ${itemHistory.changeType} = 'changed' and ${seen})`;

  return {
    /** Items of a source created (roadmap) or published (Message Center) in the window, newest first. */
    async newItems(source: 'roadmap' | 'messages', start: Date, end: Date): Promise<UnifiedItemRow[]> {
      return db
        .select(unifiedItemColumns)
        .from(items)
        .where(and(eq(items.source, source), eq(items.isRemoved, false), publicOnly, inWindow(items.createdDate, start, end)))
        .orderBy(...first, desc(items.createdDate), desc(items.id))
        .limit(DIGEST_LIST_CAP);
    },

    /** Roadmap items with a recorded change in the window that are not new in it; most recently changed first. */
    async changedRoadmapItems(start: Date, end: Date): Promise<UnifiedItemRow[]> {
      return db
        .select(unifiedItemColumns)
        .from(items)
        .where(
          and(
            eq(items.source, 'roadmap'),
            eq(items.isRemoved, false),
            publicOnly,
            sql`(${items.createdDate} is null or ${items.createdDate} < ${start})`,
            changedInWindow(start, end),
          ),
        )
        .orderBy(...first, sql`${lastChange} desc nulls last`, desc(items.id))
        .limit(DIGEST_LIST_CAP);
    },

    /**
     * Message Center posts updated in the window and not published in it: a recorded change in the window, or
     * Microsoft's own last-update stamp in the window at least an hour after publication (the dashboard's Updated
     * rule), so an install whose history is younger than a week still shows the week's updates.
     */
    async updatedMessages(start: Date, end: Date): Promise<UnifiedItemRow[]> {
      return db
        .select(unifiedItemColumns)
        .from(items)
        .where(
          and(
            eq(items.source, 'messages'),
            eq(items.isRemoved, false),
            publicOnly,
            sql`(${items.createdDate} is null or ${items.createdDate} < ${start})`,
            sql`(${changedInWindow(start, end)} or (${inWindow(items.modifiedDate, start, end)} and ${items.modifiedDate} >= ${items.createdDate} + ${UPDATED_MESSAGE_MIN_GAP}))`,
          ),
        )
        .orderBy(...first, sql`greatest(${items.modifiedDate}, ${lastChange}) desc nulls last`, desc(items.id))
        .limit(DIGEST_LIST_CAP);
    },

    /**
     * Service Health incidents of the week: started in the window, or updated in it (still running, or resolved this
     * week); the newest first.
     */
    async incidents(start: Date, end: Date): Promise<UnifiedItemRow[]> {
      return db
        .select(unifiedItemColumns)
        .from(items)
        .where(
          and(
            eq(items.source, 'health'),
            eq(items.category, 'incident'),
            publicOnly,
            sql`(${inWindow(items.createdDate, start, end)} or ${inWindow(items.modifiedDate, start, end)})`,
          ),
        )
        .orderBy(...first, desc(items.createdDate), desc(items.id))
        .limit(DIGEST_LIST_CAP);
    },

    /** Items a moderator featured in the window, most recently featured first. */
    async featuredItems(start: Date, end: Date, limit: number): Promise<UnifiedItemRow[]> {
      return db
        .select(unifiedItemColumns)
        .from(items)
        .where(and(eq(items.isFeatured, true), eq(items.isRemoved, false), publicOnly, inWindow(items.featuredAt, start, end)))
        .orderBy(desc(items.featuredAt), desc(items.id))
        .limit(limit);
    },

    async subscriberByEmail(email: string): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db.select().from(digestSubscribers).where(eq(digestSubscribers.email, email));
      return row;
    },

    /** The address's row, locked until the transaction ends (two signups of one address are decided one after the other). */
    async subscriberByEmailForUpdate(email: string): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db.select().from(digestSubscribers).where(eq(digestSubscribers.email, email)).for('update');
      return row;
    },

    async subscriberById(id: number): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db.select().from(digestSubscribers).where(eq(digestSubscribers.id, id));
      return row;
    },

    /** The signed-in user's row: linked by user id, or (not yet linked) by the account's address. */
    async subscriberOfUser(userId: number, email: string): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db
        .select()
        .from(digestSubscribers)
        .where(sql`${digestSubscribers.userId} = ${userId} or ${digestSubscribers.email} = ${email}`)
        .orderBy(sql`(${digestSubscribers.userId} = ${userId}) desc nulls last`, asc(digestSubscribers.id))
        .limit(1);
      return row;
    },

    /**
     * A visitor signup waiting for its confirmation (double opt-in): one row per address. A new address gets an
     * inactive, unconfirmed row; an existing one keeps its state (an active subscription stays active) and gets the
     * new link's hash, replacing any earlier link. Names of a never-confirmed row are the newest typed ones; a
     * confirmed row only gets names it lacks.
     */
    async requestConfirmation(
      input: { email: string; firstName: string; lastName: string },
      link: { tokenHash: string; expiresAt: Date; now: Date },
    ): Promise<DigestSubscriberRow> {
      const [row] = await db
        .insert(digestSubscribers)
        .values({
          ...input,
          origin: 'signup',
          isActive: false,
          subscribedAt: link.now,
          confirmTokenHash: link.tokenHash,
          confirmExpiresAt: link.expiresAt,
          confirmSentAt: link.now,
        })
        .onConflictDoUpdate({
          target: digestSubscribers.email,
          set: {
            confirmTokenHash: link.tokenHash,
            confirmExpiresAt: link.expiresAt,
            confirmSentAt: link.now,
            firstName: sql`case when ${digestSubscribers.confirmedAt} is null then excluded.first_name else coalesce(${digestSubscribers.firstName}, excluded.first_name) end`,
            lastName: sql`case when ${digestSubscribers.confirmedAt} is null then excluded.last_name else coalesce(${digestSubscribers.lastName}, excluded.last_name) end`,
          },
        })
        .returning();
      return returned(row);
    },

    /** The confirmation link was used: the address is confirmed and subscribed; the link is spent. */
    async confirm(id: number, now: Date): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db
        .update(digestSubscribers)
        .set({
          isActive: true,
          confirmedAt: now,
          unsubscribedAt: null,
          subscribedAt: sql`case when ${digestSubscribers.isActive} then ${digestSubscribers.subscribedAt} else ${now} end`,
          confirmTokenHash: null,
          confirmExpiresAt: null,
        })
        .where(eq(digestSubscribers.id, id))
        .returning();
      return row;
    },

    /**
     * Unconfirmed signups expire: a row that was never confirmed (and belongs to no account) is deleted once its link
     * expired; any other row only loses the expired link. Returns how many rows were deleted.
     */
    async expireConfirmations(now: Date): Promise<number> {
      const deleted = await db
        .delete(digestSubscribers)
        .where(
          and(
            isNull(digestSubscribers.confirmedAt),
            isNull(digestSubscribers.userId),
            eq(digestSubscribers.isActive, false),
            lte(digestSubscribers.confirmExpiresAt, now),
          ),
        )
        .returning({ id: digestSubscribers.id });
      await db.update(digestSubscribers).set({ confirmTokenHash: null, confirmExpiresAt: null }).where(lte(digestSubscribers.confirmExpiresAt, now));
      return deleted.length;
    },

    /** Subscribes a signed-in user by their account address and links the row to the account. */
    async upsertForUser(user: { id: number; email: string; firstName: string | null; lastName: string | null }, now: Date): Promise<DigestSubscriberRow> {
      const [row] = await db
        .insert(digestSubscribers)
        .values({
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          userId: user.id,
          origin: 'account',
          isActive: true,
          subscribedAt: now,
          confirmedAt: now,
        })
        .onConflictDoUpdate({
          target: digestSubscribers.email,
          set: {
            userId: user.id,
            isActive: true,
            unsubscribedAt: null,
            // The account's address was verified by its sign-in code.
            confirmedAt: sql`coalesce(${digestSubscribers.confirmedAt}, ${now})`,
            firstName: sql`coalesce(${digestSubscribers.firstName}, excluded.first_name)`,
            lastName: sql`coalesce(${digestSubscribers.lastName}, excluded.last_name)`,
            subscribedAt: sql`case when ${digestSubscribers.isActive} then ${digestSubscribers.subscribedAt} else excluded.subscribed_at end`,
          },
        })
        .returning();
      return returned(row);
    },

    /** Switching on is only done for a signed-in account's own row, whose address is verified (so it counts as confirmed). */
    async setActive(id: number, active: boolean, now: Date, userId?: number): Promise<DigestSubscriberRow | undefined> {
      const [row] = await db
        .update(digestSubscribers)
        .set({
          isActive: active,
          unsubscribedAt: active ? null : now,
          ...(active ? { confirmedAt: sql`coalesce(${digestSubscribers.confirmedAt}, ${now})` } : {}),
          ...(userId ? { userId } : {}),
        })
        .where(eq(digestSubscribers.id, id))
        .returning();
      return row;
    },

    /** Active, confirmed subscribers with no delivery for the week yet, in id order (the job's work list). */
    async pendingSubscribers(weekStart: string, afterId: number, limit: number): Promise<DigestSubscriberRow[]> {
      return db
        .select()
        .from(digestSubscribers)
        .where(
          and(
            eq(digestSubscribers.isActive, true),
            isNotNull(digestSubscribers.confirmedAt),
            sql`${digestSubscribers.id} > ${afterId}`,
            sql`not exists (select 1 from ${digestDeliveries} where ${digestDeliveries.subscriberId} = ${digestSubscribers.id} and ${digestDeliveries.weekStart} = ${weekStart})`,
          ),
        )
        .orderBy(asc(digestSubscribers.id))
        .limit(limit);
    },

    /**
     * Claims the week for several subscribers in one statement; answers the delivery id of each subscriber claimed
     * (one that has a delivery already, from another run, is left out).
     */
    async claimDeliveries(subscriberIds: readonly number[], weekStart: string, now: Date): Promise<Map<number, number>> {
      if (subscriberIds.length === 0) return new Map();
      const rows = await db
        .insert(digestDeliveries)
        .values(subscriberIds.map((subscriberId) => ({ subscriberId, weekStart, createdAt: now })))
        .onConflictDoNothing({ target: [digestDeliveries.subscriberId, digestDeliveries.weekStart] })
        .returning({ id: digestDeliveries.id, subscriberId: digestDeliveries.subscriberId });
      return new Map(rows.map((r) => [r.subscriberId, r.id]));
    },

    /** Notes each delivery's outbox mail, in one statement. */
    async linkDeliveriesToOutbox(links: readonly { deliveryId: number; outboxId: number }[]): Promise<void> {
      if (links.length === 0) return;
      await db.execute(sql`UPDATE digest_deliveries AS d SET outbox_id = l.outbox_id
        FROM unnest(${sql.param(links.map((l) => l.deliveryId))}::int[], ${sql.param(links.map((l) => l.outboxId))}::int[]) AS l(id, outbox_id)
        WHERE d.id = l.id`);
    },

    async countActive(): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(digestSubscribers)
        .where(and(eq(digestSubscribers.isActive, true), isNotNull(digestSubscribers.confirmedAt)));
      return row?.n ?? 0;
    },

    /** Whether a run for the week (keyed by its Sunday) went through every subscriber. */
    async weekDone(weekStart: string): Promise<boolean> {
      const [row] = await db
        .select({ key: appState.key })
        .from(appState)
        .where(eq(appState.key, weekDoneKey(weekStart)));
      return Boolean(row);
    },

    async markWeekDone(weekStart: string, now: Date): Promise<void> {
      await db
        .insert(appState)
        .values({ key: weekDoneKey(weekStart), value: { completedAt: now.toISOString() }, updatedAt: now })
        .onConflictDoNothing({ target: appState.key });
    },
  };
}

const weekDoneKey = (weekStart: string) => `weekly-digest-done:${weekStart}`;

/** Of these users, who holds Admin and which private tenants each was given: a digest batch's scopes in two queries. */
export async function adminsAndGrantsOf(
  db: DbOrTx,
  userIds: readonly number[],
): Promise<{ admins: Set<number>; staff: Set<number>; granted: Map<number, number[]> }> {
  const admins = new Set<number>();
  const staff = new Set<number>();
  const granted = new Map<number, number[]>();
  if (userIds.length === 0) return { admins, staff, granted };
  const [roleRows, grantRows] = await Promise.all([
    db
      .select({ userId: userRoles.userId, role: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(and(inArray(roles.name, [ROLE_NAMES.admin, ROLE_NAMES.moderator]), inArray(userRoles.userId, [...userIds]))),
    db
      .select()
      .from(tenantAccess)
      .where(inArray(tenantAccess.userId, [...userIds])),
  ]);
  for (const r of roleRows) {
    staff.add(r.userId);
    if (r.role === ROLE_NAMES.admin) admins.add(r.userId);
  }
  for (const g of grantRows) granted.set(g.userId, [...(granted.get(g.userId) ?? []), g.tenantId]);
  return { admins, staff, granted };
}

/** The names of the tenants `scope` reads relevance of (not removed nor disabled), by id. */
export async function readableTenantNames(db: DbOrTx, scope: TenantScope): Promise<Map<number, string>> {
  const { rows } = await db.execute<{ id: number; name: string }>(
    sql`SELECT t.id, t.name FROM tenants t WHERE t.removed_at IS NULL AND t.enabled AND ${scope === 'all' ? sql`true` : visibleTenant(scope)}`,
  );
  return new Map(rows.map((t) => [Number(t.id), t.name]));
}
