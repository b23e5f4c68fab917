import { and, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { tenants, triageRecords } from '../../db/schema/index.js';
import type { TenantScope } from '../items/item-query.js';
import type { TrackerRow } from './trackers.repo.js';

/**
 * The private tenants whose records a tracker may carry to its tracker: those listed in its settings'
 * `privateTenantIds`, and a Planner tracker's own tenant (its tasks land in that tenant). Records of public
 * tenants and of no tenant go to every tracker.
 */
export function privateTenantsOf(row: Pick<TrackerRow, 'kind' | 'settings'>): number[] {
  const listed = Array.isArray(row.settings.privateTenantIds) ? row.settings.privateTenantIds.filter((id): id is number => Number.isInteger(id)) : [];
  const own = row.kind === 'planner' && Number.isInteger(row.settings.tenantId) ? [row.settings.tenantId as number] : [];
  return [...new Set([...listed, ...own])];
}

/**
 * Whether the caller may push to the tracker at all: not to a Planner whose own tenant is private and outside
 * the caller's scope (its board lives in that tenant, and its name and existence are that tenant's). Such a
 * tracker is answered like one that does not exist.
 */
export async function mayUseTracker(db: DbOrTx, row: Pick<TrackerRow, 'kind' | 'settings'>, scope: TenantScope | undefined): Promise<boolean> {
  if (scope === 'all' || row.kind !== 'planner' || !Number.isInteger(row.settings.tenantId)) return true;
  const tenantId = row.settings.tenantId as number;
  if (scope?.granted.includes(tenantId)) return true;
  const [tenant] = await db.select({ visibility: tenants.visibility }).from(tenants).where(eq(tenants.id, tenantId));
  return tenant?.visibility === 'public';
}

/**
 * Why the tracker may not carry the record (its item's title and text would reach a tracker that serves people
 * who may not see the record's private tenant), or null when it may. Read when a push is queued and again when the
 * call is made, so a tenant made private or a tracker's list changed since stops what waits.
 */
export async function refusalToCarry(db: DbOrTx, row: Pick<TrackerRow, 'kind' | 'settings' | 'name'>, recordId: number): Promise<string | null> {
  const [tenant] = await db
    .select({ id: tenants.id, name: tenants.name })
    .from(triageRecords)
    .innerJoin(tenants, eq(tenants.id, triageRecords.tenantId))
    .where(and(eq(triageRecords.id, recordId), ne(tenants.visibility, 'public')));
  if (!tenant || privateTenantsOf(row).includes(tenant.id)) return null;
  return `${row.name} is not set to carry posts of the private tenant ${tenant.name}: an admin may add it to the tracker's private tenants`;
}
