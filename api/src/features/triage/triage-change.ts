import { TRIAGE_STATE_LABELS, type TriageUpdate } from '@radar/contracts';
import type { ItemRow } from '../../db/schema/index.js';
import type { RequestAuth } from '../../http/auth.js';
import type { Clock } from '../../lib/clock.js';
import { InputError, NotAllowedError } from '../../lib/errors.js';
import type { NewTriageEvent } from './triage-notifications.repo.js';
import { editRight } from './triage-records.js';
import type { FieldChange, TriageRecordRow, TriageRepo } from './triage.repo.js';

// What one change to a record moves, checked against who asks: shared by a single update and a bulk change.

const dayOf = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * Checks one change and returns what it moves (nothing when every field sent already has its value). Owners may
 * change only the state; a due date before the item existed, or an owner who is not a user, is refused.
 */
export async function planTriageChange(
  repo: TriageRepo,
  clock: Clock,
  item: ItemRow,
  record: TriageRecordRow,
  change: TriageUpdate,
  auth: RequestAuth,
  label: string,
): Promise<{ set: Parameters<TriageRepo['update']>[1]; changes: FieldChange[] }> {
  const right = editRight(auth, record);
  const set: Parameters<TriageRepo['update']>[1] = {};
  const changes: FieldChange[] = [];
  const reset = new Set(change.reset ?? []);
  if (change.state !== undefined && (change.state !== record.state || record.closedReason !== null)) {
    set.state = change.state;
    set.doneAt = change.state === 'done' ? clock.now() : null;
    // Opened again from before tracking: tracked, and so overdue, from today.
    if (record.closedReason !== null && change.state !== 'done') set.openedOn = clock.now().toISOString().slice(0, 10);
    changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[record.state], after: TRIAGE_STATE_LABELS[change.state] });
  }
  if (change.ownerId !== undefined && change.ownerId !== record.ownerId) {
    if (change.ownerId !== null && !(await repo.existingUsers([change.ownerId])).has(change.ownerId)) {
      throw new InputError(`${label}: no user has id ${change.ownerId}`, [{ path: 'ownerId', message: `No user has id ${change.ownerId}` }]);
    }
    const owner = change.ownerId === null ? null : await repo.person(change.ownerId);
    if (owner && !(await repo.usersSeeing(record.tenantId, [owner.id])).has(owner.id)) {
      const message = `${owner.email} may not see ${record.tenantName ?? `tenant ${record.tenantId}`}'s posts: an admin must grant them the tenant first`;
      throw new InputError(`${label}: ${message}`, [{ path: 'ownerId', message }]);
    }
    set.ownerId = change.ownerId;
    changes.push({ field: 'owner', before: record.ownerEmail, after: owner?.email ?? null });
    // Giving someone a record closed before tracking is deciding it is work after all: it opens, tracked from today.
    if (change.ownerId !== null && record.closedReason !== null && change.state === undefined) {
      Object.assign(set, { state: 'new', doneAt: null, openedOn: clock.now().toISOString().slice(0, 10) });
      changes.push({ field: 'state', before: TRIAGE_STATE_LABELS[record.state], after: TRIAGE_STATE_LABELS.new });
    }
  }
  if (reset.has('dueDate') || reset.has('priority')) {
    const defaults = await repo.defaultsOf(record.id);
    if (reset.has('dueDate') && (record.dueSource === 'manual' || record.dueDate !== defaults.dueDate)) {
      Object.assign(set, { dueDate: defaults.dueDate, dueSource: defaults.dueSource });
      changes.push({ field: 'dueDate', before: record.dueDate, after: defaults.dueDate });
    }
    if (reset.has('priority') && (record.prioritySource !== defaults.prioritySource || record.priority !== defaults.priority)) {
      Object.assign(set, { priority: defaults.priority, prioritySource: defaults.prioritySource });
      changes.push({ field: 'priority', before: record.priority, after: defaults.priority });
    }
  }
  if (change.dueDate !== undefined && !reset.has('dueDate') && change.dueDate !== record.dueDate) {
    const existed = dayOf(item.createdDate) ?? dayOf(item.firstSeenAt);
    if (change.dueDate !== null && existed && change.dueDate < existed) {
      throw new InputError(`${label}: the due date cannot be before the item existed (${existed})`, [
        { path: 'dueDate', message: `dueDate must not be before ${existed}, when the item was published` },
      ]);
    }
    Object.assign(set, { dueDate: change.dueDate, dueSource: 'manual' });
    changes.push({ field: 'dueDate', before: record.dueDate, after: change.dueDate });
  }
  if (change.priority !== undefined && !reset.has('priority') && change.priority !== record.priority) {
    Object.assign(set, { priority: change.priority, prioritySource: 'manual' });
    changes.push({ field: 'priority', before: record.priority, after: change.priority });
  }
  if (changes.length > 0 && right === 'none') {
    throw new NotAllowedError(`${label}: only its owner, a moderator or an admin may change its triage`);
  }
  if (right === 'state' && changes.some((c) => c.field !== 'state')) {
    throw new NotAllowedError(`${label}: as its owner you may change the state; the owner, due date and priority are set by moderators and admins`);
  }
  return { set, changes };
}

/** The mail events of a change: the new owner is told (unless they gave it to themselves). */
export function assignmentEvents(recordId: number, set: { ownerId?: number | null }, by: number, now: Date): NewTriageEvent[] {
  if (set.ownerId === undefined || set.ownerId === null || set.ownerId === by) return [];
  return [{ userId: set.ownerId, kind: 'assigned', recordId, actorId: by, dedupeKey: `assigned:${recordId}:${set.ownerId}:${now.getTime()}` }];
}
