import type { UserRoleAssignment } from '@radar/contracts';
import type { Db } from '../../../db/client.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/clock.js';
import { countAdmins, lockAdminRole } from '../admin-guards.repo.js';
import { createRolesRepo } from '../roles/roles.repo.js';
import { createUserRolesRepo } from './user-roles.repo.js';
import { createUsersRepo } from '../users/users.repo.js';
import type { AccessNarrowedReactor } from '../../../lib/access-narrowed.js';

/** `accessNarrowed`: what the features do when an admin loses the role (services.ts composes it). */
export function createUserRolesService(deps: { db: Db; clock: Clock; services: { accessNarrowed: AccessNarrowedReactor } }) {
  return {
    list(): Promise<UserRoleAssignment[]> {
      return createUserRolesRepo(deps.db).list();
    },

    /** Idempotent: assigning a role the user already has answers the existing assignment (created: false). */
    async assign(userId: number, roleId: number): Promise<{ assignment: UserRoleAssignment; created: boolean }> {
      if (!(await createUsersRepo(deps.db).find(userId))) throw new NotFoundError(`User ${userId} not found`);
      if (!(await createRolesRepo(deps.db).find(roleId))) throw new NotFoundError(`Role ${roleId} not found`);
      const repo = createUserRolesRepo(deps.db);
      const created = await repo.insert(userId, roleId, deps.clock.now());
      const assignment = await repo.find(userId, roleId);
      // The user or role was deleted between the insert and the read.
      if (!assignment) throw new NotFoundError(`User ${userId} or role ${roleId} no longer exists`);
      return { assignment, created };
    },

    /** The last admin cannot lose Admin (409), so the installation can never lock itself out. */
    async unassign(userId: number, roleId: number): Promise<UserRoleAssignment> {
      return deps.db.transaction(async (tx) => {
        const repo = createUserRolesRepo(tx);
        const adminRoleId = await lockAdminRole(tx);
        const assignment = await repo.find(userId, roleId);
        if (!assignment) throw new NotFoundError(`User ${userId} does not have role ${roleId}`);
        if (roleId === adminRoleId) {
          if ((await countAdmins(tx, adminRoleId)) <= 1) {
            throw new ConflictError('Cannot remove the Admin role from the last admin: give another user the Admin role first');
          }
          await repo.clearImpersonation(userId);
        }
        await repo.remove(userId, roleId);
        // A former admin keeps only the work and messages of tenants they may still see.
        if (roleId === adminRoleId) await deps.services.accessNarrowed(tx, { cause: 'admin-role-removed', userId }, deps.clock.now());
        return assignment;
      });
    },
  };
}
