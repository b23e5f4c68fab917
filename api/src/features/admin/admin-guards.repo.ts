import { and, eq, sql } from 'drizzle-orm';
import { ROLE_NAMES } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { roles, userRoles, users } from '../../db/schema/index.js';

/**
 * Locks the Admin role row for the rest of the transaction and returns its id. Every change that can remove an
 * admin (unassigning Admin, deleting a user) takes this lock first, so two admins removing each other at the same
 * moment cannot both pass the "not the last admin" check.
 */
export async function lockAdminRole(tx: DbOrTx): Promise<number | null> {
  const rows = await tx.execute<{ id: number }>(sql`SELECT id FROM roles WHERE name = ${ROLE_NAMES.admin} FOR UPDATE`);
  return rows.rows[0]?.id ?? null;
}

export async function countAdmins(tx: DbOrTx, adminRoleId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(userRoles)
    .where(eq(userRoles.roleId, adminRoleId));
  return row?.n ?? 0;
}

export async function isAdmin(tx: DbOrTx, userId: number, adminRoleId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: userRoles.id })
    .from(userRoles)
    .innerJoin(roles, eq(userRoles.roleId, roles.id))
    .where(and(eq(userRoles.userId, userId), eq(userRoles.roleId, adminRoleId)))
    .limit(1);
  return rows.length > 0;
}

/** The e-mail addresses of everyone with the Admin role. */
export async function adminEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: users.email })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.name, ROLE_NAMES.admin));
  return rows.map((r) => r.email);
}

/** Everyone with the Admin role, plus ADMIN_EMAILS (admins-to-be who have not signed in yet). */
export async function adminAddresses(db: DbOrTx, configured: string[]): Promise<string[]> {
  return [...new Set([...(await adminEmails(db)), ...configured])].sort();
}
