import { CHANGE_VALUE_PREVIEW_CHARS, IGNORED_HISTORY_FIELDS, type ChangeHistoryEntry } from '@radar/contracts';
import { truncate } from '@radar/shared-ui';

const IGNORED = new Set<string>(IGNORED_HISTORY_FIELDS);

/** Changed fields minus lastModified, lastUpdated and modifiedDate. */
export const significantFields = (entry: ChangeHistoryEntry) => entry.changedFields.filter((field) => !IGNORED.has(field));

/** Entries worth showing: creations and removals, and changes that touched at least one significant field. */
export function significantEntries(entries: ChangeHistoryEntry[]): ChangeHistoryEntry[] {
  return entries.filter((entry) => entry.changeType !== 'changed' || significantFields(entry).length > 0);
}

export const CHANGE_BADGE: Record<ChangeHistoryEntry['changeType'], string> = { new: 'Created', changed: 'Updated', removed: 'Removed' };

/** A previous or new value as text, cut at 300 characters. */
export function formatChangeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  return truncate(text, CHANGE_VALUE_PREVIEW_CHARS);
}
