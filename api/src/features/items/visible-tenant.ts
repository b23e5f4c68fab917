import { sql, type SQL } from 'drizzle-orm';

/** A tenant `t` the caller may see: public, or granted to them. */
export function visibleTenant(scope: { granted: readonly number[] } | undefined): SQL {
  const granted = sql.param(scope?.granted.length ? [...scope.granted] : [0]);
  return sql`(t.visibility = 'public' OR t.id = ANY(${granted}::integer[]))`;
}
