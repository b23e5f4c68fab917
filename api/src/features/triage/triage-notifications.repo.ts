import { and, eq, gt, inArray, isNull, not, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { TRIAGE_DUE_SOON_REMINDER_DAYS, type TriageMailKind } from '@radar/contracts';
import { OPEN_STATES, overdueOn } from './triage-views.js';
import type { DbOrTx } from '../../db/client.js';
import { items, tenants, triageComments, triageMailOptOuts, triageNotifications, triageRecords, users } from '../../db/schema/index.js';
import { personNameSql } from './triage-users.repo.js';
import { dropUnseenNotices, userSeesRecord } from './triage-audience.repo.js';

export interface NewTriageEvent {
  userId: number;
  kind: TriageMailKind;
  recordId: number;
  actorId?: number | null;
  commentId?: number | null;
  /** The event's identity: the same key twice is one event. */
  dedupeKey: string;
}

/** A pending event with what its mail says about it. */
export interface PendingTriageEvent {
  id: number;
  kind: TriageMailKind;
  itemSource: 'roadmap' | 'messages' | 'health';
  externalId: string;
  title: string;
  tenantName: string | null;
  dueDate: string | null;
  actorName: string | null;
  commentBody: string | null;
}

const n = alias(triageNotifications, 'n');
const tr = alias(triageRecords, 'tr');

export function createTriageNotificationsRepo(db: DbOrTx) {
  return {
    /** Records events (each once: a key seen before is ignored). */
    async add(events: NewTriageEvent[], now: Date): Promise<void> {
      if (events.length === 0) return;
      await db
        .insert(triageNotifications)
        .values(events.map((e) => ({ ...e, actorId: e.actorId ?? null, commentId: e.commentId ?? null, createdAt: now })))
        .onConflictDoNothing({ target: triageNotifications.dedupeKey });
    },

    /**
     * The reminders due today: each owner's open items due in exactly TRIAGE_DUE_SOON_REMINDER_DAYS days, and those
     * whose due date was yesterday or earlier (overdue since today, or since a day a run was missed), of records the
     * owner may still see. Once per record and due date: a new due date reminds again.
     */
    async addReminders(today: string, now: Date): Promise<number> {
      // raw: INSERT … SELECT of some columns with a lateral join and ON CONFLICT; drizzle's insert().select() must give
      // every column of the table.
      const { rows } = await db.execute<{ id: number }>(sql`
        INSERT INTO triage_notifications (user_id, kind, record_id, dedupe_key, created_at)
        SELECT tr.owner_id, r.kind, tr.id, r.kind || ':' || tr.id || ':' || tr.due_date, ${now}
        FROM triage_records tr
        JOIN items i ON i.id = tr.item_id AND NOT i.is_removed
        CROSS JOIN LATERAL (SELECT CASE
          WHEN tr.due_date = ${today}::date + ${TRIAGE_DUE_SOON_REMINDER_DAYS}::int THEN 'due_soon'
          WHEN ${overdueOn(today)} THEN 'overdue' END AS kind) r
        WHERE tr.owner_id IS NOT NULL AND tr.state IN ${OPEN_STATES} AND r.kind IS NOT NULL AND ${userSeesRecord(sql`tr.owner_id`)}
          AND (r.kind = 'due_soon' OR tr.due_date >= ${today}::date - 30)
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`);
      return rows.length;
    },

    /** Users with events not yet mailed whose last triage mail is older than `notSince` (or who never had one). */
    async usersDue(notSince: Date): Promise<number[]> {
      const s = alias(triageNotifications, 's');
      const mailedSince = db
        .select({ id: s.id })
        .from(s)
        .where(and(eq(s.userId, n.userId), gt(s.sentAt, notSince), not(s.skipped)));
      const rows = await db
        .selectDistinct({ userId: n.userId })
        .from(n)
        .where(and(isNull(n.sentAt), notExists(mailedSince)))
        .orderBy(n.userId);
      return rows.map((r) => r.userId);
    },

    /**
     * A user's events not yet mailed, oldest first, with what the mail says about each; locked for this transaction.
     * Events about records the user may no longer see are dropped first (marked sent and skipped), never told.
     */
    async pendingOf(userId: number, now: Date): Promise<PendingTriageEvent[]> {
      await dropUnseenNotices(db, userId, now);
      const i = alias(items, 'i');
      const t = alias(tenants, 't');
      const a = alias(users, 'a');
      const c = alias(triageComments, 'c');
      const rows = await db
        .select({
          id: n.id,
          kind: n.kind,
          itemSource: i.source,
          externalId: i.externalId,
          title: i.title,
          tenantName: t.name,
          dueDate: sql<string | null>`to_char(tr.due_date, 'YYYY-MM-DD')`,
          actorName: sql<string | null>`${personNameSql('a')}`,
          commentBody: sql<string | null>`CASE WHEN c.deleted_at IS NULL THEN c.body END`,
        })
        .from(n)
        .innerJoin(tr, eq(tr.id, n.recordId))
        .innerJoin(i, eq(i.id, tr.itemId))
        .leftJoin(t, eq(t.id, tr.tenantId))
        .leftJoin(a, eq(a.id, n.actorId))
        .leftJoin(c, eq(c.id, n.commentId))
        .where(and(eq(n.userId, userId), isNull(n.sentAt)))
        .orderBy(n.id)
        .for('update', { of: n, skipLocked: true });
      // The kind column holds the contract's mail kinds.
      return rows.map((r) => ({ ...r, kind: r.kind as TriageMailKind }));
    },

    async markSent(ids: number[], now: Date, skipped: boolean): Promise<void> {
      if (ids.length === 0) return;
      await db.update(triageNotifications).set({ sentAt: now, skipped }).where(inArray(triageNotifications.id, ids));
    },

    async optedOut(userId: number): Promise<Set<TriageMailKind>> {
      const rows = await db.select({ kind: triageMailOptOuts.kind }).from(triageMailOptOuts).where(eq(triageMailOptOuts.userId, userId));
      return new Set(rows.map((r) => r.kind as TriageMailKind));
    },

    /** Switches kinds off for the user (nothing when the account is gone: an old link must not fail). */
    async optOut(userId: number, kinds: TriageMailKind[], now: Date): Promise<void> {
      if (kinds.length === 0) return;
      // raw: INSERT … SELECT over unnest(…) of the kinds, so a user who is gone gets nothing; drizzle's from() takes a
      // set-returning function only as raw SQL.
      await db.execute(sql`
        INSERT INTO triage_mail_opt_outs (user_id, kind, created_at)
        SELECT u.id, k.kind, ${now} FROM users u CROSS JOIN unnest(${sql.param(kinds)}::text[]) AS k(kind) WHERE u.id = ${userId}
        ON CONFLICT DO NOTHING`);
    },

    async optIn(userId: number, kinds: TriageMailKind[]): Promise<void> {
      if (kinds.length === 0) return;
      await db.delete(triageMailOptOuts).where(and(eq(triageMailOptOuts.userId, userId), inArray(triageMailOptOuts.kind, kinds)));
    },

    /** Events not yet mailed of a user (tests and the outbox view). */
    async pendingCount(userId: number): Promise<number> {
      const rows = await db
        .select({ id: triageNotifications.id })
        .from(triageNotifications)
        .where(and(eq(triageNotifications.userId, userId), isNull(triageNotifications.sentAt)));
      return rows.length;
    },
  };
}
