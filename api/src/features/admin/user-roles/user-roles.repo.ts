import { and, asc, eq } from 'drizzle-orm';
import type { UserRoleAssignment } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';
import { roles, sessions, userRoles, users } from '../../../db/schema/index.js';

export function createUserRolesRepo(db: DbOrTx) {
  const selectAssignments = () =>
    db
      .select({
        id: userRoles.id,
        userId: userRoles.userId,
        roleId: userRoles.roleId,
        user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
        role: { id: roles.id, name: roles.name },
      })
      .from(userRoles)
      .innerJoin(users, eq(userRoles.userId, users.id))
      .innerJoin(roles, eq(userRoles.roleId, roles.id));

  return {
    async list(): Promise<UserRoleAssignment[]> {
      return selectAssignments().orderBy(asc(users.email), asc(roles.name));
    },
    async find(userId: number, roleId: number): Promise<UserRoleAssignment | undefined> {
      const [row] = await selectAssignments().where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)));
      return row;
    },
    /** Inserts unless present; returns whether a row was created. */
    async insert(userId: number, roleId: number, now: Date): Promise<boolean> {
      const rows = await db
        .insert(userRoles)
        .values({ userId, roleId, createdAt: now })
        .onConflictDoNothing({ target: [userRoles.userId, userRoles.roleId] })
        .returning({ id: userRoles.id });
      return rows.length > 0;
    },
    async remove(userId: number, roleId: number): Promise<boolean> {
      const rows = await db
        .delete(userRoles)
        .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, roleId)))
        .returning({ id: userRoles.id });
      return rows.length > 0;
    },
    /** Someone who is no longer an admin must not keep an impersonated role in an open session. */
    async clearImpersonation(userId: number): Promise<void> {
      await db.update(sessions).set({ impersonatedRole: null }).where(eq(sessions.userId, userId));
    },
  };
}
