import { sql } from 'drizzle-orm';
import type { TriagePriority, TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';

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

/**
 * Triage records as a system outside M365 Radar reads and changes them (the work trackers: a task is written from a
 * record, and a task closed, reassigned or rescheduled in the tracker comes back into it). Its changes are nobody's of
 * ours, and its activity lines name the system as the actor.
 */
export function createTrackedRecordsRepo(db: DbOrTx) {
  return {
    /** The record with its item, owner and tenant; `lock` takes the record's row lock for this transaction. */
    async get(recordId: number, lock = false): Promise<TrackedRecord | null> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT i.source, i.external_id, i.title, coalesce(nullif(i.summary, ''), left(coalesce(i.description, ''), 2000)) AS summary,
          to_char(tr.due_date, 'YYYY-MM-DD') AS due_date, tr.priority, tr.state, o.email AS owner_email, tr.tenant_id, t.name AS tenant_name,
          tr.updated_at
        FROM triage_records tr JOIN items i ON i.id = tr.item_id
        LEFT JOIN users o ON o.id = tr.owner_id LEFT JOIN tenants t ON t.id = tr.tenant_id
        WHERE tr.id = ${recordId} ${lock ? sql`FOR UPDATE OF tr` : sql``}`);
      const r = rows[0];
      if (!r) return null;
      return {
        source: r.source as TrackedRecord['source'],
        externalId: String(r.external_id),
        title: String(r.title),
        summary: String(r.summary ?? ''),
        dueDate: (r.due_date as string | null) ?? null,
        priority: r.priority as TriagePriority,
        state: r.state as TriageState,
        ownerEmail: (r.owner_email as string | null) ?? null,
        tenantId: r.tenant_id === null ? null : Number(r.tenant_id),
        tenantName: (r.tenant_name as string | null) ?? null,
        updatedAt: r.updated_at ? new Date(r.updated_at as string) : null,
      };
    },

    async userIdByEmail(email: string): Promise<number | null> {
      const { rows } = await db.execute<{ id: number }>(sql`SELECT id FROM users WHERE lower(email) = ${email.toLowerCase()} LIMIT 1`);
      return rows[0] ? Number(rows[0].id) : null;
    },

    /**
     * Writes a tracker's change: nobody of ours made it, so `updated_by_id` is cleared. A state set in the tracker is a
     * person's decision there, so a record closed before tracking loses that reason (as with a person's change here).
     */
    async apply(recordId: number, change: RecordChange, now: Date): Promise<void> {
      const assignments = Object.entries(change).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`);
      if (assignments.length === 0) return;
      if (change.state !== undefined) assignments.push(sql`closed_reason = NULL`);
      await db.execute(sql`UPDATE triage_records SET ${sql.join(assignments, sql`, `)}, updated_at = ${now}, updated_by_id = NULL WHERE id = ${recordId}`);
    },

    /** The activity-log line of a tracker's change; the tracker is the actor. */
    async log(record: TrackedRecord, actor: string, details: Record<string, unknown>, now: Date): Promise<void> {
      const itemType = record.source === 'roadmap' ? 'roadmap' : record.source === 'health' ? 'service_health' : 'message_center';
      const tenant = record.tenantId !== null ? { tenant: { id: record.tenantId, name: record.tenantName ?? `Tenant ${record.tenantId}` } } : {};
      await db.execute(sql`
        INSERT INTO moderator_activities (user_id, user_email, action_type, item_type, item_id, item_title, details, recorded_by, created_at)
        VALUES (NULL, ${actor}, 'triage_changed', ${itemType}, ${record.externalId}, ${record.title}, ${JSON.stringify({ ...tenant, ...details })}::jsonb,
          'server', ${now})`);
    },
  };
}
