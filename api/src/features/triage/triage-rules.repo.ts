import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type SavedSearchQuery, type TriagePriority, type TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, moderatorActivities, tenants, triageRecords, triageRules, users } from '../../db/schema/index.js';
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

const tr = alias(triageRecords, 'tr');
const t = alias(tenants, 't');
const o = alias(users, 'o');

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
      // raw: UPDATE … FROM unnest(…) WITH ORDINALITY; drizzle's from() takes a set-returning function only as raw SQL.
      await db.execute(sql`
        UPDATE triage_rules r SET position = o.n
        FROM unnest(${sql.param([...ids])}::int[]) WITH ORDINALITY AS o(id, n) WHERE r.id = o.id`);
    },

    /**
     * The open records whose item matches the rule's view (every tenant: rules are the admins'), of `recordIds`
     * or of every open record.
     */
    async candidates(filters: SavedSearchQuery, recordIds: readonly number[] | 'open', now: Date): Promise<RuleCandidate[]> {
      const which = recordIds === 'open' ? sql`true` : sql`${tr.id} = ANY(${sql.param([...recordIds])}::int[])`;
      const where = itemWhere({ ...filters, tenantScope: 'all' }, now, searchPlan(filters.search));
      const rows = await db
        .select({
          id: tr.id,
          itemId: tr.itemId,
          externalId: items.externalId,
          itemTitle: items.title,
          source: items.source,
          tenantId: tr.tenantId,
          tenantName: t.name,
          ownerId: tr.ownerId,
          ownerEmail: o.email,
          state: tr.state,
          priority: tr.priority,
          prioritySource: tr.prioritySource,
        })
        .from(tr)
        .innerJoin(items, eq(items.id, tr.itemId))
        .leftJoin(t, eq(t.id, tr.tenantId))
        .leftJoin(o, eq(o.id, tr.ownerId))
        .where(and(which, sql`${tr.state} IN ${OPEN_STATES}`, where))
        .orderBy(tr.id);
      // The text columns hold the contract's states and priorities.
      return rows as RuleCandidate[];
    },

    /**
     * The roadmap items without a record that match the rule's view, of `itemIds` or of all: a rule that matches a
     * roadmap item opens it (roadmap items are not triaged by default).
     */
    async roadmapMatches(filters: SavedSearchQuery, itemIds: readonly number[] | 'all', now: Date): Promise<number[]> {
      const which = itemIds === 'all' ? sql`true` : sql`${items.id} = ANY(${sql.param([...itemIds])}::int[])`;
      const where = itemWhere({ ...filters, tenantScope: 'all' }, now, searchPlan(filters.search));
      const recordOf = db.select({ id: tr.id }).from(tr).where(eq(tr.itemId, items.id));
      const rows = await db
        .select({ id: items.id })
        .from(items)
        .where(and(which, eq(items.source, 'roadmap'), where, notExists(recordOf)));
      return rows.map((r) => r.id);
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
      await db
        .update(triageRecords)
        .set({
          ownerId: set.ownerId,
          state: set.state,
          ...(set.state === 'done' ? { doneAt: now } : {}),
          ...(set.priority !== undefined ? { priority: set.priority, prioritySource: 'rule' } : {}),
          ruleFields: sql`${triageRecords.ruleFields} || ${JSON.stringify(fields)}::jsonb`,
        })
        .where(eq(triageRecords.id, id));
    },
  };
}
