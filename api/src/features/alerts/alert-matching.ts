import { reachedTenant, SOURCE_ITEM_NOUNS, type AlertItem, type AlertOn } from '@radar/contracts';
import { shareUrlOf } from '../items/share-link.js';
import { summarizeChange } from '../feeds/change-summary.js';
import { TENANT_OWN_FIELDS } from '../items/tenant-own-fields.js';
import type { TouchedChange } from './alert-matching.repo.js';

/**
 * One alert entry per item, newest change last merged in: 'new' when the item first appeared in the period (it
 * counts only when the search alerts on new items), else removed / restored / changed with the fields that changed.
 * A change a run of a tenant the owner may not see recorded (`seesTenant`) says nothing of that tenant's own
 * fields: no "reached your tenant" from another organisation's status.
 */
export function alertItemsOf(
  changes: TouchedChange[],
  inView: Set<number>,
  alertOn: AlertOn[],
  publicUrl: string,
  seesTenant: (tenantId: number | null) => boolean = () => true,
): AlertItem[] {
  const byItem = new Map<number, AlertItem>();
  for (const seen of changes) {
    if (!inView.has(seen.itemRowId)) continue;
    const c = seesTenant(seen.tenantId) ? seen : { ...seen, changedFields: seen.changedFields.filter((f) => !TENANT_OWN_FIELDS.has(f)) };
    if (c.changeType === 'changed' && c.changedFields.length === 0) continue;
    const existing = byItem.get(c.itemRowId);
    const summary = summarizeChange(c, SOURCE_ITEM_NOUNS[c.source]);
    const restored = c.changeType === 'changed' && c.changedFields.includes('isRemoved') && c.newValues.isRemoved === false;
    const reached =
      c.changeType === 'changed' && c.changedFields.includes('featureStatus') ? reachedTenant(c.previousValues.featureStatus, c.newValues.featureStatus) : [];
    const change: AlertItem['change'] =
      c.changeType === 'new' ? 'new' : c.changeType === 'removed' ? 'removed' : restored ? 'restored' : reached.length ? 'reached_tenant' : 'changed';
    const lines = change === 'new' ? [] : reached.length ? [`Reached your tenant: ${reached.join(', ')}`, ...summary.lines] : summary.lines;
    if (!existing) {
      byItem.set(c.itemRowId, {
        id: `${c.source}-${c.externalId}`,
        source: c.source,
        externalId: c.externalId,
        title: c.title,
        change,
        changes: lines,
        url: shareUrlOf(publicUrl, c),
        changedAt: c.changeDate.toISOString(),
      });
      continue;
    }
    existing.title = c.title;
    existing.changedAt = c.changeDate.toISOString();
    if (existing.change !== 'new') {
      // A merged entry keeps the telling kind: removed, restored or reached beats a plain change.
      existing.change = change === 'changed' && existing.change !== 'changed' ? existing.change : change;
      existing.changes = [...existing.changes, ...lines.filter((l) => !existing.changes.includes(l))];
    }
  }
  // Reaching the tenant is a change too: it alerts searches on changes, and searches on that alone.
  const wanted = new Set<AlertItem['change']>([
    ...(alertOn.includes('new') ? ['new' as const] : []),
    ...(alertOn.includes('changed') ? (['changed', 'removed', 'restored', 'reached_tenant'] as const) : []),
    ...(alertOn.includes('reached_tenant') ? ['reached_tenant' as const] : []),
  ]);
  return [...byItem.values()].filter((i) => wanted.has(i.change));
}
