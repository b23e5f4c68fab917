import { asc, eq, sql } from 'drizzle-orm';
import { type SavedSearchQuery, type TriagePriority, type TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { moderatorActivities, triageRules } from '../../db/schema/index.js';
import { itemWhere, searchPlan } from '../items/item-query.js';
import { OPEN_STATES } from './triage-views.js';

export type TriageRuleRow = typeof triageRules.$inferSelect;

/** A record a rule matched, as it stands before the rule. */
export interface RuleCandidate {
  id: number;
  itemId: number;
  externalId: string;
  itemTitle: string;
  source: 'roadmap' | 'messages' | 'health';
  tenantId: number | null;
  tenantName: string | null;
  ownerId: number | null;
  ownerEmail: string | null;
  state: TriageState;
  priority: TriagePriority;
  prioritySource: string;
}

export function createTriageRulesRepo(db: DbOrTx) {
  return {
    async list(): Promise<TriageRuleRow[]> {
      return db.select().from(triageRules).orderBy(asc(triageRules.position), asc(triageRules.id));
    },

    async find(id: number): Promise<TriageRuleRow | null> {
      const [row] = await db.select().from(triageRules).where(eq(triageRules.id, id)).limit(1);
      return row ?? null;
    },

    async insert(values: Omit<typeof triageRules.$inferInsert, 'position'>, now: Date): Promise<TriageRuleRow> {
      const [row] = await db
        .insert(triageRules)
        .values({ ...values, position: sql`coalesce((SELECT max(position) FROM triage_rules), 0) + 1`, createdAt: now, updatedAt: now })
        .returning();
      if (!row) throw new Error('triage rule not written');
      return row;
    },

    async update(id: number, values: Partial<typeof triageRules.$inferInsert>, now: Date): Promise<TriageRuleRow | null> {
      const [row] = await db
        .update(triageRules)
        .set({ ...values, updatedAt: now })
        .where(eq(triageRules.id, id))
        .returning();
      return row ?? null;
    },

    async remove(id: number): Promise<boolean> {
      const rows = await db.delete(triageRules).where(eq(triageRules.id, id)).returning({ id: triageRules.id });
      return rows.length > 0;
    },

    /** Numbers the rules 1… in the order given. */
    async reorder(ids: readonly number[]): Promise<void> {
      await db.execute(sql`
        UPDATE triage_rules r SET position = o.n
        FROM unnest(${sql.param([...ids])}::int[]) WITH ORDINALITY AS o(id, n) WHERE r.id = o.id`);
    },

    /**
     * The open records whose item matches the rule's view (every tenant: rules are the admins'), of `recordIds`
     * or of every open record.
     */
    async candidates(filters: SavedSearchQuery, recordIds: readonly number[] | 'open', now: Date): Promise<RuleCandidate[]> {
      const which = recordIds === 'open' ? sql`true` : sql`tr.id = ANY(${sql.param([...recordIds])}::int[])`;
      const where = itemWhere({ ...filters, tenantScope: 'all' }, now, searchPlan(filters.search));
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT tr.id, tr.item_id AS "itemId", items.external_id AS "externalId", items.title AS "itemTitle", items.source,
          tr.tenant_id AS "tenantId", t.name AS "tenantName", tr.owner_id AS "ownerId", o.email AS "ownerEmail",
          tr.state, tr.priority, tr.priority_source AS "prioritySource"
        FROM triage_records tr JOIN items ON items.id = tr.item_id
        LEFT JOIN tenants t ON t.id = tr.tenant_id LEFT JOIN users o ON o.id = tr.owner_id
        WHERE ${which} AND tr.state IN ${OPEN_STATES} AND ${where}
        ORDER BY tr.id`);
      return rows as unknown as RuleCandidate[];
    },

    /**
     * The roadmap items without a record that match the rule's view, of `itemIds` or of all: a rule that matches a
     * roadmap item opens it (roadmap items are not triaged by default).
     */
    async roadmapMatches(filters: SavedSearchQuery, itemIds: readonly number[] | 'all', now: Date): Promise<number[]> {
      const which = itemIds === 'all' ? sql`true` : sql`items.id = ANY(${sql.param([...itemIds])}::int[])`;
      const where = itemWhere({ ...filters, tenantScope: 'all' }, now, searchPlan(filters.search));
      const { rows } = await db.execute<{ id: number }>(sql`
        SELECT items.id FROM items
        WHERE ${which} AND items.source = 'roadmap' AND ${where}
          AND NOT EXISTS (SELECT 1 FROM triage_records tr WHERE tr.item_id = items.id)`);
      return rows.map((r) => Number(r.id));
    },

    /** The activity-log lines of what a rule changed (the rule is the actor). */
    async logRuleChanges(entries: { candidate: RuleCandidate; rule: TriageRuleRow; changes: unknown[]; notes?: string[] }[], now: Date): Promise<void> {
      if (entries.length === 0) return;
      const itemType = { roadmap: 'roadmap', messages: 'message_center', health: 'service_health' } as const;
      await db.insert(moderatorActivities).values(
        entries.map(({ candidate, rule, changes, notes }) => ({
          userId: null,
          userEmail: `Triage rule “${rule.name}”`,
          actionType: 'triage_changed',
          itemType: itemType[candidate.source],
          itemId: candidate.externalId,
          itemTitle: candidate.itemTitle,
          details: {
            ...(candidate.tenantId !== null ? { tenant: { id: candidate.tenantId, name: candidate.tenantName ?? `Tenant ${candidate.tenantId}` } } : {}),
            changes,
            ...(notes?.length ? { notes } : {}),
            rule: { id: rule.id, name: rule.name },
          },
          recordedBy: 'server',
          createdAt: now,
        })),
      );
    },

    /** Writes what a rule set on a record, and that the rule set it. */
    async applyToRecord(
      id: number,
      set: { ownerId?: number; state?: TriageState; priority?: TriagePriority },
      fields: Partial<Record<'owner' | 'state' | 'priority', number>>,
      now: Date,
    ): Promise<void> {
      await db.execute(sql`
        UPDATE triage_records SET
          owner_id = ${set.ownerId === undefined ? sql`owner_id` : sql`${set.ownerId}`},
          state = ${set.state === undefined ? sql`state` : sql`${set.state}`},
          done_at = ${set.state === 'done' ? sql`${now}` : sql`done_at`},
          priority = ${set.priority === undefined ? sql`priority` : sql`${set.priority}`},
          priority_source = ${set.priority === undefined ? sql`priority_source` : sql`'rule'`},
          rule_fields = rule_fields || ${JSON.stringify(fields)}::jsonb
        WHERE id = ${id}`);
    },
  };
}
