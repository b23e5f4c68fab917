import type { ItemRow, NewItemRow } from '../../db/schema/index.js';
import { safeCopiesOf, safeSourceOf, SANITIZE_VERSION, type SafeCopies } from '../../lib/html.js';
import { diffRecords, pickValues } from './fields.js';
import type { SourceAdapter } from './records.js';

/**
 * The pure heart of a sync: existing state + snapshot → what to write. No I/O, so the rules (history semantics,
 * restore, expiry) are tested quickly and the writer can batch everything in one transaction.
 *
 * History semantics:
 *  - new:      first time an id is seen. changedFields [], newValues = the item's headline fields.
 *  - changed:  a tracked field differs. changedFields + previous/new values per field.
 *  - removed:  the item left the feed (or, for messages, its endDateTime passed). changedFields ['isRemoved'].
 *  - restore:  a removed item is back: one 'changed' entry whose changedFields start with 'isRemoved'
 *              (true → false), plus whatever else changed while it was away.
 */

export interface ExistingItem {
  id: number;
  externalId: string;
  contentHash: string;
  isRemoved: boolean;
  modifiedDate: Date | null;
  /** The tenant whose copy the stored fields are (null: an unscoped run wrote them). */
  contentTenantId?: number | null;
  /** The stored sanitised copies' policy version and the text they were made from (items.safe_version, safe_source). */
  safeVersion?: number;
  safeSource?: string | null;
}

/**
 * The sanitised copies an update writes: none when the stored ones are of the policy in force and of this very text
 * (a restamp, or a change of dates or status only), so an unchanged long body is not sanitised again on every sync.
 */
function copiesToWrite(row: { description?: string | null; bodyHtml?: string | null }, before: ExistingItem): SafeCopies | Record<string, never> {
  return before.safeVersion === SANITIZE_VERSION && before.safeSource === safeSourceOf(row) ? {} : safeCopiesOf(row);
}

export type HistoryType = 'new' | 'changed' | 'removed';

export interface HistoryDraft {
  externalId: string;
  changeType: HistoryType;
  changedFields: string[];
  previousValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

export interface ItemChange {
  externalId: string;
  changeType: HistoryType | 'restored';
  changedFields: string[];
}

export interface SyncCounts {
  /** Records in the snapshot (a post past its end date included). */
  itemsProcessed: number;
  /** First seen in this run (an expired post seen for the first time included). */
  newItems: number;
  changedItems: number;
  removedItems: number;
  restoredItems: number;
  /** Records in the snapshot that are expired (Message Center posts past their end date): stored, not live. */
  expiredInFeed: number;
  /** Of the changed items, those that are expired: recorded, but in no digest (digests list live items). */
  changedExpired: number;
}

export interface SyncPlan {
  inserts: Omit<NewItemRow, 'source'>[];
  updates: { id: number; externalId: string; set: Partial<NewItemRow> }[];
  removals: { id: number; externalId: string }[];
  history: HistoryDraft[];
  /** Messages whose roadmap links must be (re)written: externalId → records (links of others stay as they are). */
  relink: string[];
  changes: ItemChange[];
  counts: SyncCounts;
}

const removedEntry = (externalId: string, reason: string | null): HistoryDraft => ({
  externalId,
  changeType: 'removed',
  changedFields: ['isRemoved'],
  previousValues: { isRemoved: false },
  newValues: reason ? { isRemoved: true, reason } : { isRemoved: true },
});

export function planSync<R>(args: {
  adapter: SourceAdapter<R>;
  snapshot: R[];
  existing: Map<string, ExistingItem>;
  /** Full rows of the existing items whose content hash differs from the snapshot's (others are not needed). */
  fullRows: Map<string, ItemRow>;
  now: Date;
}): SyncPlan {
  const { adapter, snapshot, existing, fullRows, now } = args;
  const newFields = adapter.newFields;
  const plan: SyncPlan = {
    inserts: [],
    updates: [],
    removals: [],
    history: [],
    relink: [],
    changes: [],
    counts: { itemsProcessed: snapshot.length, newItems: 0, changedItems: 0, removedItems: 0, restoredItems: 0, expiredInFeed: 0, changedExpired: 0 },
  };
  const seen = new Set<string>();

  for (const record of snapshot) {
    const externalId = adapter.externalId(record);
    seen.add(externalId);
    const active = adapter.isActive(record, now);
    if (!active) plan.counts.expiredInFeed++;
    // Every row written carries its text as it is sent out (`safeCopiesOf`), made here for the rows written only,
    // and for an update only when its text or the output policy moved (`copiesToWrite`).
    const row = adapter.toRow(record);
    const before = existing.get(externalId);

    if (!before) {
      plan.inserts.push({
        ...row,
        ...safeCopiesOf(row),
        isRemoved: !active,
        removedAt: active ? null : now,
        firstSeenAt: now,
        lastSeenAt: now,
        lastChangedAt: now,
      });
      plan.history.push({ externalId, changeType: 'new', changedFields: [], previousValues: {}, newValues: pickValues(adapter.fields, newFields, record) });
      plan.changes.push({ externalId, changeType: 'new', changedFields: [] });
      plan.relink.push(externalId);
      plan.counts.newItems++;
      continue;
    }

    const full = before.contentHash === row.contentHash ? undefined : fullRows.get(externalId);
    const diff = full ? diffRecords(adapter.fields, adapter.fromRow(full), record) : null;
    const changed = Boolean(diff && diff.changedFields.length > 0);
    const restored = before.isRemoved && active;
    const nowRemoved = !before.isRemoved && !active;
    const modifiedMoved = (before.modifiedDate?.getTime() ?? null) !== (adapter.modifiedDate(record)?.getTime() ?? null);

    if (restored) {
      plan.history.push({
        externalId,
        changeType: 'changed',
        changedFields: ['isRemoved', ...(diff?.changedFields ?? [])],
        previousValues: { isRemoved: true, ...(diff?.previousValues ?? {}) },
        newValues: { isRemoved: false, ...(diff?.newValues ?? {}) },
      });
      plan.changes.push({ externalId, changeType: 'restored', changedFields: ['isRemoved', ...(diff?.changedFields ?? [])] });
      plan.counts.restoredItems++;
    } else if (changed && diff) {
      plan.history.push({ externalId, changeType: 'changed', ...diff });
      plan.changes.push({ externalId, changeType: 'changed', changedFields: diff.changedFields });
      plan.counts.changedItems++;
      if (!active) plan.counts.changedExpired++;
    }
    if (nowRemoved) {
      plan.history.push(removedEntry(externalId, 'expired'));
      plan.changes.push({ externalId, changeType: 'removed', changedFields: ['isRemoved'] });
      plan.counts.removedItems++;
    }

    if (changed || restored || nowRemoved) {
      plan.updates.push({
        id: before.id,
        externalId,
        set: {
          ...row,
          ...copiesToWrite(row, before),
          isRemoved: !active,
          removedAt: active ? null : now,
          lastSeenAt: now,
          ...(changed || restored ? { lastChangedAt: now } : {}),
          ...(diff && full && adapter.changeColumns ? adapter.changeColumns(diff, full, now) : {}),
        },
      });
      if (diff?.changedFields.includes('roadmapIds') || restored) plan.relink.push(externalId);
    } else if (modifiedMoved || before.contentHash !== row.contentHash) {
      // The feed restamped the item (roadmap `modified` alone) or a field outside the tracked set moved:
      // keep the stored copy current without writing history.
      plan.updates.push({ id: before.id, externalId, set: { ...row, ...copiesToWrite(row, before), lastSeenAt: now } });
    }
  }

  for (const [externalId, before] of existing) {
    if (adapter.keepsUnlisted) break;
    if (seen.has(externalId) || before.isRemoved) continue;
    plan.removals.push({ id: before.id, externalId });
    plan.history.push(removedEntry(externalId, adapter.source === 'message_center' ? 'expired' : null));
    plan.changes.push({ externalId, changeType: 'removed', changedFields: ['isRemoved'] });
    plan.counts.removedItems++;
  }
  return plan;
}
