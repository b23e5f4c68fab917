import { sql, type SQL } from 'drizzle-orm';
import { OPEN_TRIAGE_STATES, TRIAGE_DUE_SOON_DAYS, type TriageView } from '@radar/contracts';
import { sourcesCondition, visibleTenant, type ItemWhereFilters, type TenantScope } from '../items/item-query.js';

// The queue views as SQL over triage records `tr`: which records are in a view, which the caller may see, and the
// queue's order. The queues, the counts, the reports and the list's triage lens all read records through these.

/** The open triage states as an SQL list, `('new', 'relevant', 'in_progress')`: the queue indexes' predicate spells it so. */
export const OPEN_STATES = sql.raw(`(${OPEN_TRIAGE_STATES.map((s) => `'${s}'`).join(', ')})`);

/**
 * A triage record `tr` (open) is overdue on `today`: its due date is before today and passed while the record was
 * open (`overdue_from`: a rollout start or GA month before anyone tracked the item is not overdue; a date a person set
 * or Microsoft's act-by date is).
 */
export function overdueOn(today: string): SQL {
  return sql`(tr.due_date < ${today}::date AND (tr.overdue_from IS NULL OR tr.due_date >= tr.overdue_from))`;
}

/**
 * A triage record `tr` in a queue view: mine = open and owned by the user; unassigned = open without an owner;
 * overdue = open with a due date before today that passed while it was open (overdueOn); due-soon = open and due today or within TRIAGE_DUE_SOON_DAYS days;
 * done = done by someone (not closed before tracking). Open is New, Relevant or In progress (Not relevant and Done are decided). Days are UTC days. An open
 * record stays in its views whatever became of its item (expired, removed from the roadmap): Microsoft's state is
 * not the team's, and work someone was given must not vanish from their queue; only Done leaves out records of
 * removed items unless `includeRemoved` (the archive). Written as the queue indexes' predicates so those indexes
 * serve the views.
 */
export function triageViewCondition(view: TriageView, userId: number, now: Date, includeRemoved = false): SQL {
  const today = now.toISOString().slice(0, 10);
  const live = includeRemoved ? sql`` : sql` AND NOT tr.item_removed`;
  const open = sql`tr.state IN ${OPEN_STATES}`;
  switch (view) {
    case 'mine':
      return sql`tr.owner_id = ${userId} AND ${open} AND tr.owner_id IS NOT NULL`;
    case 'unassigned':
      return sql`tr.owner_id IS NULL AND ${open}`;
    case 'overdue':
      return sql`${open} AND ${overdueOn(today)}`;
    case 'due-soon':
      return sql`${open} AND tr.due_date >= ${today}::date AND tr.due_date <= ${today}::date + ${TRIAGE_DUE_SOON_DAYS}::int`;
    case 'done':
      // Done by someone: a record closed before tracking was never anyone's work.
      return sql`tr.state = 'done' AND tr.closed_reason IS NULL${live}`;
  }
}

/**
 * Whether the list shows removed items: on request (`includeRemoved`, the archive), and in an open queue view, which
 * lists its records' items whatever became of them (triageViewCondition).
 */
export function listsRemovedItems(f: { triage?: TriageView; includeRemoved?: boolean }): boolean {
  return Boolean(f.includeRemoved) || (f.triage !== undefined && f.triage !== 'done');
}

/** The queue's order: nearest due date first (none last), then higher priority; Done: most recently done first. */
export function queueOrder(view: TriageView): SQL {
  if (view === 'done') return sql`tr.done_at DESC NULLS LAST, tr.id DESC`;
  return sql`tr.due_date ASC NULLS LAST, (CASE tr.priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END), tr.id DESC`;
}

/**
 * Filters of the list that are not the defaults and that a triage record cannot answer itself: the ones a queue view
 * must read its items for. `sources` is not among them: a record carries its item's source (recordSourceCondition).
 */
export function hasItemFilters(f: ItemWhereFilters): boolean {
  const { tenantScope: _scope, includeRemoved: _removed, triageUserId: _user, visitSince: _visit, triage: _triage, sources: _sources, ...rest } = f;
  return Object.entries(rest).some(([key, value]) => {
    if (value === undefined || value === null || value === false || value === '') return false;
    if (Array.isArray(value)) return value.length > 0;
    return !(key === 'timeline' && value === 'all');
  });
}

/**
 * A triage record `tr` the caller may see: an item's own record (no tenant), or a tenant's record of a tenant the
 * caller may see.
 */
export function visibleTriageRecord(scope: TenantScope | undefined): SQL {
  if (scope === 'all') return sql`true`;
  return sql`(tr.tenant_id IS NULL OR tr.tenant_id IN (SELECT t.id FROM tenants t WHERE ${visibleTenant(scope)}))`;
}

/** The list's `sources` as a condition on a triage record `tr` (its own copy of the item's source); `true` for all. */
export function recordSourceCondition(f: Pick<ItemWhereFilters, 'sources'>): SQL {
  return sourcesCondition(sql`tr.source`, f) ?? sql`true`;
}
