import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TriagePriority, TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities, tenants, triageRecords, users } from '../../db/schema/index.js';

/** A triage record with its item, owner and tenant, as a task is written from it and a read is applied to it. */
export interface TrackedRecord {
  source: 'roadmap' | 'messages' | 'health';
  externalId: string;
  title: string;
  summary: string;
  dueDate: string | null;
  priority: TriagePriority;
  state: TriageState;
  ownerEmail: string | null;
  tenantId: number | null;
  tenantName: string | null;
  updatedAt: Date | null;
}

/** What a tracker's task changed in a record (snake-case columns of triage_records). */
export type RecordChange = Partial<{ state: TriageState; done_at: Date | null; owner_id: number; due_date: string | null; due_source: 'manual' }>;

/** The field of triage_records each column of a RecordChange is. */
const FIELD_OF = {
  state: 'state',
  done_at: 'doneAt',
  owner_id: 'ownerId',
  due_date: 'dueDate',
  due_source: 'dueSource',
} as const satisfies Record<keyof RecordChange, keyof typeof triageRecords.$inferInsert>;

const tr = alias(triageRecords, 'tr');
const i = alias(items, 'i');
const o = alias(users, 'o');
const t = alias(tenants, 't');

/**
 * Triage records as a system outside M365 Radar reads and changes them (the work trackers: a task is written from a
 * record, and a task closed, reassigned or rescheduled in the tracker comes back into it). Its changes are nobody's of
 * ours, and its activity lines name the system as the actor.
 */
export function createTrackedRecordsRepo(db: DbOrTx) {
  return {
    /** The record with its item, owner and tenant; `lock` takes the record's row lock for this transaction. */
    async get(recordId: number, lock = false): Promise<TrackedRecord | null> {
      const query = db
        .select({
          source: i.source,
          externalId: i.externalId,
          title: i.title,
          summary: sql<string>`coalesce(nullif(i.summary, ''), left(coalesce(i.description, ''), 2000))`,
          dueDate: sql<string | null>`to_char(tr.due_date, 'YYYY-MM-DD')`,
          priority: tr.priority,
          state: tr.state,
          ownerEmail: o.email,
          tenantId: tr.tenantId,
          tenantName: t.name,
          updatedAt: tr.updatedAt,
        })
        .from(tr)
        .innerJoin(i, eq(i.id, tr.itemId))
        .leftJoin(o, eq(o.id, tr.ownerId))
        .leftJoin(t, eq(t.id, tr.tenantId))
        .where(eq(tr.id, recordId))
        .$dynamic();
      const [r] = await (lock ? query.for('update', { of: tr }) : query);
      if (!r) return null;
      // The text columns hold the contract's priorities and states.
      return { ...r, priority: r.priority as TriagePriority, state: r.state as TriageState };
    },

    async userIdByEmail(email: string): Promise<number | null> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .limit(1);
      return row ? row.id : null;
    },

    /**
     * Writes a tracker's change: nobody of ours made it, so `updated_by_id` is cleared. A state set in the tracker is a
     * person's decision there, so a record closed before tracking loses that reason (as with a person's change here).
     */
    async apply(recordId: number, change: RecordChange, now: Date): Promise<void> {
      const entries = Object.entries(change) as [keyof RecordChange, RecordChange[keyof RecordChange]][];
      if (entries.length === 0) return;
      const fields = Object.fromEntries(entries.map(([column, value]) => [FIELD_OF[column], value ?? null]));
      await db
        .update(triageRecords)
        .set({ ...fields, ...(change.state !== undefined ? { closedReason: null } : {}), updatedAt: now, updatedById: null })
        .where(eq(triageRecords.id, recordId));
    },

    /** The activity-log line of a tracker's change; the tracker is the actor. */
    async log(record: TrackedRecord, actor: string, details: Record<string, unknown>, now: Date): Promise<void> {
      const itemType = record.source === 'roadmap' ? 'roadmap' : record.source === 'health' ? 'service_health' : 'message_center';
      const tenant = record.tenantId !== null ? { tenant: { id: record.tenantId, name: record.tenantName ?? `Tenant ${record.tenantId}` } } : {};
      await db.insert(moderatorActivities).values({
        userId: null,
        userEmail: actor,
        actionType: 'triage_changed',
        itemType,
        itemId: record.externalId,
        itemTitle: record.title,
        details: { ...tenant, ...details },
        recordedBy: 'server',
        createdAt: now,
      });
    },
  };
}
