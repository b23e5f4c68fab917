import type { ItemRow } from '../../../db/schema/index.js';
import { comparableValue } from '../../sync/fields.js';
import type { SourceAdapter } from '../../sync/records.js';
import { isCosmeticChange } from '../../sync/cosmetic.js';
import type { HistoryRow } from '../../sync/change-history.repo.js';

/** The tracked fields of an item at one version, by history name, plus whether it was in its feed then. */
export type VersionState = Record<string, unknown>;

export interface RebuiltVersion {
  version: number;
  changeDate: Date;
  changeType: HistoryRow['changeType'];
  changedFields: string[];
  minor: boolean;
  state: VersionState;
}

/** The item as stored now, in history form (the same values a sync records). */
export function currentState<R>(adapter: SourceAdapter<R>, row: ItemRow): VersionState {
  const record = adapter.fromRow(row);
  const state: VersionState = {};
  for (const field of adapter.fields) state[field.name] = field.value(record) ?? null;
  state.isRemoved = row.isRemoved;
  return state;
}

/**
 * Every version of an item, newest first, rebuilt from the stored row and its history (newest first). Each history
 * entry holds the previous and new value of exactly the fields it changed, so walking back from the current state
 * and putting back each entry's previous values gives the state before it: the newest version is the row as it is
 * now, version 1 the item as first seen. Nothing but the history is needed, so items recorded before versions
 * existed have them too (docs/ingestion.md, "Versions").
 */
export function rebuildVersions(current: VersionState, historyNewestFirst: HistoryRow[]): RebuiltVersion[] {
  const versions: RebuiltVersion[] = [];
  let state = { ...current };
  historyNewestFirst.forEach((row, index) => {
    versions.push({
      version: historyNewestFirst.length - index,
      changeDate: row.changeDate,
      changeType: row.changeType,
      changedFields: row.changeType === 'new' ? [] : row.changedFields,
      minor: isCosmeticChange(row),
      state,
    });
    state = { ...state };
    for (const field of row.changedFields) state[field] = row.previousValues[field] ?? null;
  });
  return versions;
}

/** Fields whose values differ between two states, in the adapter's field order (then isRemoved). */
export function differingFields<R>(adapter: SourceAdapter<R>, before: VersionState, after: VersionState) {
  const names = [...adapter.fields.map((f) => ({ name: f.name, unordered: f.unordered ?? false })), { name: 'isRemoved', unordered: false }];
  return names
    .filter(({ name, unordered }) => comparableValue(before[name], unordered) !== comparableValue(after[name], unordered))
    .map(({ name }) => ({ field: name, before: before[name] ?? null, after: after[name] ?? null }));
}
