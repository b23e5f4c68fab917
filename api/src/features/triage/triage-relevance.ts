import { RELEVANCE_LEVELS, relevancePriority, TRIAGE_PRIORITY_SOURCE_LABELS, type TriagePriority, type TriagePrioritySource } from '@radar/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { RELEVANCE_LEVEL_VALUE } from '../../db/schema/index.js';

// How relevance moves a record's default priority (docs/product/triage.md, "Priority"): one step up for an item of High
// relevance, one step down for Low, none for Medium or Unknown, within high…low. Only the default moves: a priority a
// person or a rule set stays. The relevance read is the record's own tenant's; a record of no tenant (a roadmap item's,
// everyone's) takes the item's highest level among the tenants, as the list's chip does. Tenants removed or disabled
// count for nothing.

/** Who set the priorities that are never moved. */
export const KEPT_PRIORITY_SOURCES: readonly TriagePrioritySource[] = ['manual', 'rule'];

/** The priority each default source gives before relevance moves it (PRIORITY_OF_SOURCE, as data). */
const SOURCE_PRIORITY: Record<Exclude<TriagePrioritySource, 'manual' | 'rule'>, TriagePriority> = {
  high_severity: 'high',
  action_required_major: 'high',
  incident: 'high',
  action_required: 'medium',
  major_change: 'medium',
  advisory: 'low',
  no_signal: 'low',
};

/** low 0, medium 1, high 2: a step is ±1. */
const rankOf = (p: TriagePriority) => ['low', 'medium', 'high'].indexOf(p);

/** The step of each stored level, as SQL: `CASE level WHEN 3 THEN 1 … END`. */
const STEP_OF_LEVEL = (level: SQL) =>
  sql`CASE ${level} ${sql.join(
    RELEVANCE_LEVELS.map((l) => sql.raw(`WHEN ${RELEVANCE_LEVEL_VALUE[l]} THEN ${relevancePriority(l)}`)),
    sql` `,
  )} ELSE 0 END`;

/**
 * The step relevance moves the default priority of item `item`'s record of tenant `tenant` (a column or NULL): the
 * tenant's level, or with no tenant the highest level among the tenants; 0 without a row.
 */
export const relevanceStepSql = (item: SQL, tenant: SQL) =>
  sql`coalesce((SELECT ${STEP_OF_LEVEL(sql`max(rl.level)`)} FROM item_relevance rl
    JOIN tenants rlt ON rlt.id = rl.tenant_id AND rlt.removed_at IS NULL AND rlt.enabled
    WHERE rl.item_id = ${item} AND (${tenant}::integer IS NULL OR rl.tenant_id = ${tenant})), 0)`;

/** `base` (a priority as SQL) moved by `step` (SQL), kept within high…low. */
export const movedPrioritySql = (base: SQL, step: SQL) =>
  sql`(ARRAY['low','medium','high'])[greatest(0, least(2, (CASE ${base} WHEN 'high' THEN 2 WHEN 'medium' THEN 1 ELSE 0 END) + ${step})) + 1]`;

/** Whether relevance moved a record's default priority, and which way: a default other than its source's can only be relevance's doing. */
export function relevanceMoved(priority: TriagePriority, source: TriagePrioritySource): 'raised' | 'lowered' | null {
  if (source === 'manual' || source === 'rule') return null;
  const moved = rankOf(priority) - rankOf(SOURCE_PRIORITY[source]);
  return moved > 0 ? 'raised' : moved < 0 ? 'lowered' : null;
}

/**
 * Where a record's priority came from, in words: the source's label, and when relevance moved a default, which way
 * ("Major change; raised: High relevance"). A person's or a rule's priority has its own source.
 */
export function priorityReasonOf(priority: TriagePriority, source: TriagePrioritySource): string {
  const label = TRIAGE_PRIORITY_SOURCE_LABELS[source];
  const moved = relevanceMoved(priority, source);
  if (moved === 'raised') return `${label}; raised: High relevance`;
  if (moved === 'lowered') return `${label}; lowered: Low relevance`;
  return label;
}
