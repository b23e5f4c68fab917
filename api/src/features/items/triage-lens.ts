import type { SQL } from 'drizzle-orm';
import type { TriageView } from '@radar/contracts';
import type { DueSortFilters, ItemFilters, ItemWhereFilters } from './item-query.js';

/** A list request in a triage view, with the user the view is for. */
export type TriageViewFilters = ItemWhereFilters & { triage: TriageView; triageUserId: number };

/**
 * What the list asks of triage, without knowing it: triage builds on the list (its queues take the list's filters),
 * so items may not import it. The triage feature implements it (features/triage/triage-lens.ts) and the composition
 * root (services.ts) hands it to the items repo. A list given none answers neither a triage view nor the due sort:
 * the statement refuses to be built rather than leave the view out.
 */
export interface TriageLens {
  /** A condition on `items`: the item has a record the caller may see in the view. */
  inView(f: TriageViewFilters, now: Date): SQL;
  /** Whether the view lists removed items too (an open view lists its records' items whatever became of them). */
  listsRemovedItems(view: TriageView): boolean;
  /** The `due` sort key of `items`: the nearest due date of its records (in the view, if any); none sorts last. */
  nearestDue(f: DueSortFilters, now: Date): SQL;
  /** One page of the list sorted by due date, without a search: rows of (item_id, due), in list order. */
  duePage(f: ItemFilters, now: Date, limit: number, offset: number): SQL;
  /** The list's total counted from the records alone, when they answer it (a view and no item filter); else null. */
  recordsCount(f: ItemWhereFilters, now: Date): SQL | null;
}

/** The lens a statement needs for `what`; a list built without one cannot answer it. */
export function requireLens(lens: TriageLens | undefined, what: string): TriageLens {
  if (!lens) throw new Error(`${what} needs the triage lens (features/triage/triage-lens.ts), and this list was given none`);
  return lens;
}
