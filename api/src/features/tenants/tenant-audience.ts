import { sql, type SQL } from 'drizzle-orm';
import { ROLE_NAMES } from '@radar/contracts';

/**
 * Which tenants' Message Center posts the caller may see: 'all' (admins), or the posts of public tenants plus the
 * private ones `granted` to the caller. Absent: a guest's view (public tenants only). Posts of no tenant (synced
 * before tenants existed without GRAPH_*, files, the demo set) and roadmap items are everyone's. Set by the server
 * from the session or token; never read from a query string.
 */
export type TenantScope = 'all' | { granted: readonly number[] };

/**
 * SQL: whether user `user` may see tenant `tenantId`, by the rule of `tenantScopeOfUser` read from the tables as they
 * are now (admins every tenant, everyone else the public tenants and those an admin granted them; no tenant is
 * everyone's). What a recipient is checked with when something is written for them: a triage owner, a mention, an
 * alert waiting to be delivered.
 */
export function userSeesTenant(user: SQL, tenantId: SQL): SQL {
  return sql`(${tenantId} IS NULL
    OR EXISTS (SELECT 1 FROM tenants vt WHERE vt.id = ${tenantId} AND vt.visibility = 'public')
    OR EXISTS (SELECT 1 FROM tenant_access va WHERE va.tenant_id = ${tenantId} AND va.user_id = ${user})
    OR EXISTS (SELECT 1 FROM user_roles vur JOIN roles vr ON vr.id = vur.role_id WHERE vur.user_id = ${user} AND vr.name = ${ROLE_NAMES.admin}))`;
}
