import { ROLE_NAMES } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import type { RequestAuth } from '../../http/auth.js';
import type { TenantScope } from './tenant-audience.js';
import { createTenantsRepo } from './tenants.repo.js';

/**
 * Which tenants' posts a caller may see: admins every tenant (as their session's roles say: an admin viewing as a
 * lesser role sees what that role sees; an API token never carries Admin) once their session's second factor is
 * satisfied, signed-in users (and admins whose session lacks the factor) the public tenants and those an admin gave
 * them, guests the public ones (undefined).
 */
export async function tenantScopeOf(db: DbOrTx, auth: RequestAuth | null | undefined): Promise<TenantScope | undefined> {
  if (!auth) return undefined;
  const factorSatisfied = (auth.secondFactor?.state ?? 'ok') === 'ok';
  return tenantScopeOfUser(db, auth.user.id, factorSatisfied && auth.roles.some((r) => r.name === ROLE_NAMES.admin));
}

/** The scope of a user who is not in a request (a saved search's owner when its alert runs). */
export async function tenantScopeOfUser(db: DbOrTx, userId: number, isAdmin: boolean): Promise<TenantScope> {
  if (isAdmin) return 'all';
  return { granted: await createTenantsRepo(db).accessOf(userId) };
}
