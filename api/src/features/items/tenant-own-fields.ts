import { sql, type SQL } from 'drizzle-orm';
import { visibleTenant, type TenantScope } from './item-query.js';

/**
 * A tenant's own fields: what one organisation's Message Center says of a post for that organisation only (its
 * rollout status per platform). A post several tenants received is one row, so a change a run of a private tenant
 * recorded may carry such a field: readers who may not see that tenant get the change without it.
 */
export const TENANT_OWN_FIELDS: ReadonlySet<string> = new Set(['featureStatus']);

interface ChangeLike {
  changeType: string;
  changedFields: string[];
  previousValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
}

const strip = <V extends Record<string, unknown> | null>(values: V): V =>
  (values === null ? values : Object.fromEntries(Object.entries(values).filter(([k]) => !TENANT_OWN_FIELDS.has(k)))) as V;

/**
 * The change as a reader who may not see the tenant whose run recorded it sees it: without the tenant's own fields,
 * or null when a change of only those fields is left with nothing to say.
 */
export function withoutTenantOwnFields<T extends ChangeLike>(change: T): T | null {
  if (!change.changedFields.some((f) => TENANT_OWN_FIELDS.has(f)) && !hasOwnValues(change)) return change;
  const changedFields = change.changedFields.filter((f) => !TENANT_OWN_FIELDS.has(f));
  if (change.changeType === 'changed' && changedFields.length === 0) return null;
  return { ...change, changedFields, previousValues: strip(change.previousValues), newValues: strip(change.newValues) };
}

const hasOwnValues = (c: ChangeLike) => [c.previousValues, c.newValues].some((v) => v !== null && Object.keys(v).some((k) => TENANT_OWN_FIELDS.has(k)));

/** Each change as the reader sees it: `seesTenant` says whether they may see the tenant whose run recorded it. */
export function changesAsSeen<T extends ChangeLike & { tenantId: number | null }>(changes: readonly T[], seesTenant: (tenantId: number) => boolean): T[] {
  return changes.flatMap((c) => {
    if (c.tenantId === null || seesTenant(c.tenantId)) return [c];
    const seen = withoutTenantOwnFields(c);
    return seen ? [seen] : [];
  });
}

const OWN_FIELDS_SQL = sql`${sql.param([...TENANT_OWN_FIELDS])}::text[]`;

/**
 * SQL: whether a reader of the scope may see the tenant whose run recorded history row `h` (a row of no run, or of a
 * run of no tenant: yes).
 */
export function runSeenSql(scope: TenantScope | undefined, h: SQL = sql.raw('h')): SQL {
  if (scope === 'all') return sql`true`;
  return sql`NOT EXISTS (SELECT 1 FROM sync_history rs JOIN tenants t ON t.id = rs.tenant_id
    WHERE rs.id = ${h}.sync_id AND NOT ${visibleTenant(scope)})`;
}

/**
 * SQL: whether history row `h` tells a reader of the scope anything: every row but a change of only a tenant's own
 * fields recorded by a run of a tenant the reader may not see (what `withoutTenantOwnFields` would leave empty).
 */
export function changeSeenSql(scope: TenantScope | undefined, h: SQL = sql.raw('h')): SQL {
  if (scope === 'all') return sql`true`;
  return sql`(${h}.change_type <> 'changed' OR NOT (${h}.changed_fields <@ ${OWN_FIELDS_SQL}) OR ${runSeenSql(scope, h)})`;
}
