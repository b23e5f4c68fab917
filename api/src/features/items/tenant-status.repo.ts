import { sql } from 'drizzle-orm';
import { featureStatusEntries, type FeatureStatusEntry } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { visibleTenant, type TenantScope } from './item-query.js';

/**
 * Of these tenant ids, those a reader of the scope may see (every one for 'all'; else the public ones and those
 * granted). A post several tenants received keeps one copy of its fields, the one its content tenant's run last
 * wrote: what is that tenant's own (the rollout status for the organisation, "reached your tenant") is shown only to
 * readers who may see that tenant.
 */
export async function visibleTenantIds(db: DbOrTx, ids: readonly (number | null)[], scope: TenantScope | undefined): Promise<Set<number>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0 || scope === 'all') return new Set(wanted);
  const { rows } = await db.execute<{ id: number }>(
    sql`SELECT t.id FROM tenants t WHERE t.id = ANY(${sql.param(wanted)}::integer[]) AND ${visibleTenant(scope)}`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** A post's rollout status per platform as the reader may see it: none when its copy is a tenant's they may not see. */
export async function tenantStatusFor(
  db: DbOrTx,
  row: { featureStatus: unknown; contentTenantId: number | null },
  scope: TenantScope | undefined,
): Promise<FeatureStatusEntry[]> {
  if (row.contentTenantId !== null && !(await visibleTenantIds(db, [row.contentTenantId], scope)).has(row.contentTenantId)) return [];
  return featureStatusEntries(row.featureStatus);
}
