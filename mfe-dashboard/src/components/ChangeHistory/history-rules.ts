import { IGNORED_HISTORY_FIELDS, type ChangeHistoryEntry } from '@radar/contracts';

const IGNORED = new Set<string>(IGNORED_HISTORY_FIELDS);

/** Changed fields minus lastModified, lastUpdated and modifiedDate. */
export const significantFields = (entry: ChangeHistoryEntry) => entry.changedFields.filter((field) => !IGNORED.has(field));

/** Entries worth showing: creations and removals, and changes that touched at least one significant field. */
export function significantEntries(entries: ChangeHistoryEntry[]): ChangeHistoryEntry[] {
  return entries.filter((entry) => entry.changeType !== 'changed' || significantFields(entry).length > 0);
}

export const CHANGE_BADGE: Record<ChangeHistoryEntry['changeType'], string> = { new: 'Created', changed: 'Updated', removed: 'Removed' };

export { formatChangeValue } from '@radar/shared-ui';
