import { desc, eq, or, sql } from 'drizzle-orm';
import type { AppUser } from '@radar/contracts';
import type { DbOrTx } from '../../../db/client.js';
import { digestSubscribers, users } from '../../../db/schema/index.js';

export function createUsersRepo(db: DbOrTx) {
  return {
    /** Every account, newest first, with the two derived flags the admin list shows. */
    async list(): Promise<AppUser[]> {
      // Spelled out: drizzle renders ${users.id} unqualified here, which would bind to the subquery's own columns.
      const hasDigest = sql<boolean>`EXISTS (
        SELECT 1 FROM ${digestSubscribers} ds
        WHERE ds.is_active AND (ds.user_id = "users"."id" OR ds.email = "users"."email")
      )`;
      const rows = await db.select({ user: users, hasDigest }).from(users).orderBy(desc(users.createdAt), desc(users.id));
      return rows.map(({ user, hasDigest }) => ({
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        isEmailVerified: user.emailVerifiedAt !== null,
        hasWeeklyDigestSubscription: Boolean(hasDigest),
        lastLoginAt: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
        createdAt: user.createdAt.toISOString(),
      }));
    },
    async find(id: number) {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    /**
     * Deletes the account. Sessions, item subscriptions and role assignments go by ON DELETE CASCADE; the weekly
     * digest subscription is keyed by e-mail (and only SET NULL on the user), so it is removed here explicitly.
     */
    async remove(id: number, email: string): Promise<boolean> {
      await db.delete(digestSubscribers).where(or(eq(digestSubscribers.userId, id), eq(digestSubscribers.email, email)));
      const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
      return rows.length > 0;
    },
  };
}
