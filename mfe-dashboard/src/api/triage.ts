import { useSWRConfig } from 'swr';
import { routes, type ListTriage, type TriageItemType, type TriageUpdate, type UnifiedItem } from '@radar/contracts';
import { callEndpoint, providerIdOf, urlOf, useEndpoint } from '@radar/shared-ui';

/** The triage API's item type of a list item. */
export const triageTypeOf = (item: Pick<UnifiedItem, 'source'>): TriageItemType =>
  item.source === 'roadmap' ? 'roadmap' : item.source === 'health' ? 'service-health' : 'message-center';

const paramsOf = (item: UnifiedItem) => ({ itemType: triageTypeOf(item), itemId: providerIdOf(item) });

/** GET /api/triage/{itemType}/{itemId}: the record of the tenant chosen (else the first); null skips the call. */
export function useTriageRecord(item: UnifiedItem | null, tenant: number | undefined) {
  return useEndpoint(routes.triage.get, item ? { params: paramsOf(item), query: tenant ? { tenant } : {} } : null);
}

export function useTriageComments(item: UnifiedItem, tenant: number | null) {
  return useEndpoint(routes.triage.comments, { params: paramsOf(item), query: tenant ? { tenant } : {} });
}

export function useTriageCounts(enabled: boolean) {
  return useEndpoint(routes.triage.counts, enabled ? {} : null);
}

/** After a triage change: the list (its columns and views), the counts and every triage read refetch. */
export function useTriageRefresh() {
  const { mutate } = useSWRConfig();
  return () => mutate((key) => typeof key === 'string' && (key.startsWith('/api/unified/items') || key.startsWith('/api/triage')));
}

export function saveTriage(item: UnifiedItem, tenant: number | null, change: TriageUpdate) {
  return callEndpoint(routes.triage.update, { params: paramsOf(item), query: tenant ? { tenant } : {}, body: change });
}

/** "Triage this": opens the record of an item nobody opened (a roadmap item), answering the record. */
export function openTriage(item: UnifiedItem) {
  return callEndpoint(routes.triage.open, { params: paramsOf(item) });
}

export function addTriageComment(item: UnifiedItem, tenant: number | null, body: string) {
  return callEndpoint(routes.triage.addComment, { params: paramsOf(item), query: tenant ? { tenant } : {}, body: { body } });
}

export function editTriageComment(item: UnifiedItem, commentId: number, body: string) {
  return callEndpoint(routes.triage.editComment, { params: { ...paramsOf(item), commentId }, body: { body } });
}

export function deleteTriageComment(item: UnifiedItem, commentId: number) {
  return callEndpoint(routes.triage.deleteComment, { params: { ...paramsOf(item), commentId } });
}

/** A suggested triage (moderators and admins); nothing is applied. */
export function suggestTriage(item: UnifiedItem, tenant: number | null) {
  return callEndpoint(routes.triage.suggestion, { params: paramsOf(item), query: tenant ? { tenant } : {} });
}

/** Users to assign, by name or e-mail (moderators and admins); with a tenant, only those who may see its records. */
export function findPeople(search: string, tenant?: number | null) {
  return callEndpoint(routes.triage.people, { query: tenant ? { search, tenant } : { search } });
}

export function bulkTriage(items: { itemType: TriageItemType; itemId: string; tenant?: number }[], set: Omit<TriageUpdate, 'reset'>) {
  return callEndpoint(routes.triage.bulk, { body: { items, set } });
}

/** The records a list row stands for in a bulk change: one per tenant it is triaged for, else the item's own. */
export function bulkTargetsOf(item: UnifiedItem, records: readonly ListTriage[] | undefined) {
  const base = { itemType: triageTypeOf(item), itemId: providerIdOf(item) };
  const tenants = (records ?? []).flatMap((r) => (r.tenantId !== null ? [r.tenantId] : []));
  return tenants.length ? tenants.map((tenant) => ({ ...base, tenant })) : [base];
}

export { urlOf };

/** The item's tasks in work trackers, and (for moderators and admins) the trackers it may be pushed to. */
export function useTrackerTasks(item: UnifiedItem) {
  return useEndpoint(routes.trackers.tasks, { params: paramsOf(item) });
}

/** Pushes the record (of `tenant`, where the item is triaged per tenant) to a tracker: its task is made or updated. */
export function pushTask(item: UnifiedItem, tenant: number | null, trackerId: number, recreate = false) {
  return callEndpoint(routes.trackers.createTask, { params: paramsOf(item), query: tenant ? { tenant } : {}, body: { trackerId, recreate } });
}

/** The trackers a moderator or admin may push to now. */
export function useTrackerTargets() {
  return useEndpoint(routes.trackers.targets, {});
}

/** Pushes every chosen record to one tracker (all of them queued, or none). */
export function bulkPushTasks(items: { itemType: TriageItemType; itemId: string; tenant?: number }[], trackerId: number) {
  return callEndpoint(routes.trackers.bulkTasks, { body: { items, trackerId } });
}
