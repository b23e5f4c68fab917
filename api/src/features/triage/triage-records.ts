import { triageOverdue, TRIAGE_DUE_SOURCE_LABELS, TRIAGE_ITEM_TYPE_SOURCES, type TriageItemType, type TriageRecord } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { ItemRow } from '../../db/schema/index.js';
import { isModeratorOrAdmin, type RequestAuth } from '../../http/auth.js';
import { InputError, NotFoundError } from '../../lib/errors.js';
import { createSourceItemsRepo } from '../items/source-items.repo.js';
import type { TenantScope } from '../items/item-query.js';
import { priorityReasonOf } from './triage-relevance.js';
import { createTriageRepo, type TriageRecordRow } from './triage.repo.js';

// A triage record as requests name it and as answers show it: the lookups the triage service and the trackers'
// pushes share, and who may change what.

/** The triage item type of each list source. */
export const TRIAGE_TYPE_OF_SOURCE = { roadmap: 'roadmap', messages: 'message-center', health: 'service-health' } as const satisfies Record<
  ItemRow['source'],
  TriageItemType
>;

/** What a caller may change on a record: everything (moderators and admins), the state and conversation (its owner), nothing. */
export function editRight(auth: RequestAuth | null, record: Pick<TriageRecordRow, 'ownerId'>): TriageRecord['canEdit'] {
  if (!auth) return 'none';
  if (isModeratorOrAdmin(auth)) return 'all';
  return record.ownerId === auth.user.id ? 'state' : 'none';
}

/** An open record whose due date passed while it was open (or one a person or Microsoft's act-by date set): overdue means ours. */
export function isOverdue(row: Pick<TriageRecordRow, 'state' | 'dueDate' | 'overdueFrom' | 'opened'>, now: Date): boolean {
  return row.opened && triageOverdue(row, now.toISOString().slice(0, 10));
}

export function toTriageRecord(item: ItemRow, row: TriageRecordRow, auth: RequestAuth | null, now: Date): TriageRecord {
  return {
    itemType: TRIAGE_TYPE_OF_SOURCE[item.source],
    itemId: item.externalId,
    tenantId: row.tenantId,
    tenantName: row.tenantName,
    state: row.state,
    ownerId: row.ownerId,
    owner: row.ownerId !== null && row.ownerEmail ? { id: row.ownerId, email: row.ownerEmail, name: row.ownerName ?? row.ownerEmail } : null,
    dueDate: row.dueDate,
    dueDateSource: row.dueSource,
    dueDateReason: TRIAGE_DUE_SOURCE_LABELS[row.dueSource],
    priority: row.priority,
    prioritySource: row.prioritySource,
    priorityReason: priorityReasonOf(row.priority, row.prioritySource),
    commentCount: row.commentCount,
    setByRules: row.setByRules,
    updatedAt: row.updatedAt?.toISOString() ?? null,
    updatedBy: row.updatedByEmail,
    canEdit: editRight(auth, row),
    opened: row.opened,
    closedReason: row.closedReason,
    startLine: row.startLine,
    overdue: isOverdue(row, now),
  };
}

/** The item a triage request names, as the caller may see it; 404 otherwise. */
export async function findItem(tx: DbOrTx, itemType: TriageItemType, itemId: string, scope: TenantScope | undefined): Promise<ItemRow> {
  const item = await createSourceItemsRepo(tx).find(TRIAGE_ITEM_TYPE_SOURCES[itemType], itemId, scope);
  if (!item) throw new NotFoundError(`No ${itemType} item ${itemId}`);
  return item;
}

/**
 * The record a request means: the tenant's when one is named, else the item's only record. A change must name the
 * tenant of an item triaged per tenant; a read (`firstIfSeveral`) answers the first, with the list to choose from.
 */
export async function findRecord(
  tx: DbOrTx,
  item: ItemRow,
  tenant: number | undefined,
  scope: TenantScope | undefined,
  firstIfSeveral = false,
  how: { now: Date; read?: boolean },
): Promise<{ record: TriageRecordRow; all: TriageRecordRow[] }> {
  const repo = createTriageRepo(tx);
  let all = await repo.recordsOf(item.id, scope);
  if (all.length === 0) {
    // A post or issue the sync has not opened records for yet (it is opening them in this moment) gets them now. A
    // roadmap item is opened by the first change a person makes to it; read, it answers the record it would start as.
    const requested = item.source === 'roadmap' && !how.read;
    await repo.openRecords({ itemIds: [item.id] }, how.now, requested ? 'request' : 'sync');
    all = await repo.recordsOf(item.id, scope);
    if (all.length === 0 && item.source === 'roadmap' && how.read) {
      const unopened = await repo.unopened(item, how.now);
      return { record: unopened, all: [unopened] };
    }
  }
  if (tenant !== undefined) {
    const record = all.find((r) => r.tenantId === tenant);
    if (!record) throw new NotFoundError(`${item.externalId} has no triage record for tenant ${tenant}`);
    return { record, all };
  }
  const [only, ...more] = all;
  if (!only) throw new NotFoundError(`${item.externalId} has no triage record you may see`);
  if (more.length > 0 && !firstIfSeveral) {
    throw new InputError(`${item.externalId} reached several tenants and is triaged per tenant: name one with tenant`, [
      { path: 'tenant', message: `tenant is required: one of ${all.map((r) => r.tenantId).join(', ')}` },
    ]);
  }
  return { record: only, all };
}

/** The activity log's item type of each triage item type. */
const ACTIVITY_ITEM_TYPES = { roadmap: 'roadmap', 'message-center': 'message_center', 'service-health': 'service_health' } as const;
/** The activity log's item type of a triage item type. */
export const activityItemType = (itemType: TriageItemType) => ACTIVITY_ITEM_TYPES[itemType];
/** The tenant an activity-log line of the record names (none for an item's own record). */
export const recordTenant = (r: TriageRecordRow) => (r.tenantId !== null ? { id: r.tenantId, name: r.tenantName ?? `Tenant ${r.tenantId}` } : null);
