import type { AppUser } from '@radar/contracts';
import type { Db } from '../../../db/client.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import { countAdmins, isAdmin, lockAdminRole } from '../admin-guards.repo.js';
import { createUsersRepo } from './users.repo.js';

export function createUsersService(deps: { db: Db }) {
  return {
    list(): Promise<AppUser[]> {
      return createUsersRepo(deps.db).list();
    },

    /** The user's e-mail, or 404. */
    async emailOf(id: number): Promise<string> {
      const user = await createUsersRepo(deps.db).find(id);
      if (!user) throw new NotFoundError(`User ${id} not found`);
      return user.email;
    },

    /** Refuses to delete the caller's own account and the last admin (409 both). Returns the deleted e-mail. */
    async remove(id: number, callerId: number): Promise<string> {
      if (id === callerId) throw new ConflictError('You cannot delete your own account');
      return deps.db.transaction(async (tx) => {
        const repo = createUsersRepo(tx);
        const adminRoleId = await lockAdminRole(tx);
        const user = await repo.find(id);
        if (!user) throw new NotFoundError(`User ${id} not found`);
        if (adminRoleId !== null && (await isAdmin(tx, id, adminRoleId)) && (await countAdmins(tx, adminRoleId)) <= 1) {
          throw new ConflictError('Cannot delete the last admin: give another user the Admin role first');
        }
        await repo.remove(id, user.email);
        return user.email;
      });
    },
  };
}
