import { OPEN_TRIAGE_STATES, triageOverdue, triageStateLabel, type ListTriage } from '@radar/contracts';

export interface TriageCells {
  state: string;
  owner: string;
  due: string;
  /** An open record whose due date passed while it was open (overdue means ours). */
  overdue: boolean;
}

const isOpen = (r: ListTriage) => (OPEN_TRIAGE_STATES as readonly string[]).includes(r.state);

/**
 * The State, Owner and Due cells of an item: its record, or for an item triaged per tenant the most pressing one
 * (open before decided, nearest due date first) with "+N" for the other tenants. Null when the item has none. A record
 * closed before tracking says so, not "Done".
 */
export function triageCells(records: readonly ListTriage[] | undefined, today: string): TriageCells | null {
  if (!records?.length) return null;
  const [first] = [...records].sort((a, b) => Number(isOpen(b)) - Number(isOpen(a)) || (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'));
  if (!first) return null;
  const more = records.length > 1 ? ` (+${records.length - 1} tenant${records.length > 2 ? 's' : ''})` : '';
  return {
    state: `${triageStateLabel(first.state, first.closedReason)}${more}`,
    owner: first.ownerName ?? 'Unassigned',
    due: first.dueDate ?? '—',
    overdue: triageOverdue(first, today),
  };
}
