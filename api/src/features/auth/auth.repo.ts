import { and, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { roles, sessions, signInCodes, userRoles, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type CodeRow = typeof signInCodes.$inferSelect;

/** The only module of the auth feature that touches the database. Every function takes a handle or a transaction. */
export const authRepo = {
  /** Serialises code requests for one e-mail, so two concurrent sends cannot both slip under the rate limit. */
  async lockEmail(tx: DbOrTx, email: string): Promise<void> {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'sign-in:' + email}, 0))`);
  },

  /** Codes requested since `since` for the e-mail or from the address, with the oldest one's time. */
  async codesRequestedSince(tx: DbOrTx, by: { email: string } | { ip: string }, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const who = 'email' in by ? eq(signInCodes.email, by.email) : eq(signInCodes.requestIp, by.ip);
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | null>`min(${signInCodes.createdAt})` })
      .from(signInCodes)
      .where(and(who, gte(signInCodes.createdAt, since)));
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  },

  /** A new code makes every earlier unused code of the e-mail unusable. */
  async supersedeOpenCodes(tx: DbOrTx, email: string, now: Date): Promise<void> {
    await tx
      .update(signInCodes)
      .set({ consumedAt: now })
      .where(and(eq(signInCodes.email, email), isNull(signInCodes.consumedAt)));
  },

  async insertCode(tx: DbOrTx, row: { email: string; codeHash: string; requestIp: string | null; createdAt: Date; expiresAt: Date }): Promise<void> {
    await tx.insert(signInCodes).values(row);
  },

  /** The newest unused code of the e-mail, locked for the verification. */
  async latestOpenCodeForUpdate(tx: DbOrTx, email: string): Promise<CodeRow | undefined> {
    const [row] = await tx
      .select()
      .from(signInCodes)
      .where(and(eq(signInCodes.email, email), isNull(signInCodes.consumedAt)))
      .orderBy(desc(signInCodes.id))
      .limit(1)
      .for('update');
    return row;
  },

  async recordWrongAttempt(tx: DbOrTx, id: number): Promise<number> {
    const [row] = await tx
      .update(signInCodes)
      .set({ attempts: sql`${signInCodes.attempts} + 1` })
      .where(eq(signInCodes.id, id))
      .returning({ attempts: signInCodes.attempts });
    return row?.attempts ?? 0;
  },

  async consumeCode(tx: DbOrTx, id: number, now: Date): Promise<void> {
    await tx.update(signInCodes).set({ consumedAt: now }).where(eq(signInCodes.id, id));
  },

  async findUserByEmail(tx: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
    return row;
  },

  /** Creates the user, or fills in names an existing user does not have yet (never overwrites them). */
  async upsertSignupUser(tx: DbOrTx, input: { email: string; firstName: string; lastName: string }, now: Date): Promise<void> {
    await tx
      .insert(users)
      .values({ ...input, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: users.email,
        set: {
          firstName: sql`coalesce(nullif(${users.firstName}, ''), excluded.first_name)`,
          lastName: sql`coalesce(nullif(${users.lastName}, ''), excluded.last_name)`,
        },
      });
  },

  async markSignedIn(tx: DbOrTx, userId: number, now: Date): Promise<void> {
    await tx
      .update(users)
      .set({ lastLoginAt: now, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`, updatedAt: now })
      .where(eq(users.id, userId));
  },

  async grantRole(tx: DbOrTx, userId: number, roleName: string, now: Date): Promise<void> {
    await tx.execute(sql`
      INSERT INTO ${userRoles} (user_id, role_id, created_at)
      SELECT ${userId}, ${roles.id}, ${now} FROM ${roles} WHERE ${roles.name} = ${roleName}
      ON CONFLICT (user_id, role_id) DO NOTHING`);
  },

  async createSession(
    tx: DbOrTx,
    row: { idHash: string; userId: number; now: Date; expiresAt: Date; ip: string | null; userAgent: string | null },
  ): Promise<void> {
    await tx.insert(sessions).values({
      idHash: row.idHash,
      userId: row.userId,
      createdAt: row.now,
      lastSeenAt: row.now,
      expiresAt: row.expiresAt,
      ip: row.ip,
      userAgent: row.userAgent,
    });
  },

  async deleteSession(tx: DbOrTx, idHash: string): Promise<void> {
    await tx.delete(sessions).where(eq(sessions.idHash, idHash));
  },

  /** user_roles ids by role id, for the user-roles payload. */
  async assignmentIds(tx: DbOrTx, userId: number): Promise<Map<number, number>> {
    const rows = await tx.select({ id: userRoles.id, roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
    return new Map(rows.map((r) => [r.roleId, r.id]));
  },

  /** Expired sessions, and codes older than `codesBefore` (used or not). */
  async cleanup(tx: DbOrTx, now: Date, codesBefore: Date): Promise<{ sessions: number; codes: number }> {
    const s = await tx.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash });
    const c = await tx
      .delete(signInCodes)
      .where(lt(signInCodes.createdAt, codesBefore))
      .returning({ id: signInCodes.id });
    return { sessions: s.length, codes: c.length };
  },
};
