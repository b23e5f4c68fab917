import { and, desc, eq, gt, gte, isNull, like, lt, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { pendingSignups, roles, sessions, signInCodes, signInFailures, userRoles, users } from '../../db/schema/index.js';

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

  /**
   * A new code makes every earlier unused code of the e-mail unusable; a mailed code leaves a recovery code printed on
   * the server alone (`keepRecovery`), so asking for a mail cannot cancel an admin's recovery.
   */
  async supersedeOpenCodes(tx: DbOrTx, email: string, now: Date, opts: { keepRecovery?: boolean } = {}): Promise<void> {
    await tx
      .update(signInCodes)
      .set({ consumedAt: now })
      .where(and(eq(signInCodes.email, email), isNull(signInCodes.consumedAt), opts.keepRecovery ? ne(signInCodes.purpose, 'recovery') : undefined));
  },

  async insertCode(
    tx: DbOrTx,
    row: { email: string; codeHash: string; requestIp: string | null; createdAt: Date; expiresAt: Date; purpose?: 'sign-in' | 'recovery' },
  ): Promise<void> {
    await tx.insert(signInCodes).values(row);
  },

  /** The unused code of the e-mail to check, locked for the verification: a live recovery code first, else the newest. */
  async latestOpenCodeForUpdate(tx: DbOrTx, email: string, now: Date): Promise<CodeRow | undefined> {
    const [row] = await tx
      .select()
      .from(signInCodes)
      .where(and(eq(signInCodes.email, email), isNull(signInCodes.consumedAt)))
      .orderBy(sql`(${signInCodes.purpose} = 'recovery' AND ${signInCodes.expiresAt} > ${now}) DESC`, desc(signInCodes.id))
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

  /** Records (or refreshes) a sign-up waiting for its code; the newest names win until the code is verified. */
  async upsertPendingSignup(tx: DbOrTx, row: { email: string; firstName: string; lastName: string; now: Date; expiresAt: Date }): Promise<void> {
    await tx
      .insert(pendingSignups)
      .values({ email: row.email, firstName: row.firstName, lastName: row.lastName, createdAt: row.now, expiresAt: row.expiresAt })
      .onConflictDoUpdate({
        target: pendingSignups.email,
        set: { firstName: row.firstName, lastName: row.lastName, createdAt: row.now, expiresAt: row.expiresAt },
      });
  },

  async livePendingSignup(tx: DbOrTx, email: string, now: Date): Promise<typeof pendingSignups.$inferSelect | undefined> {
    const [row] = await tx
      .select()
      .from(pendingSignups)
      .where(and(eq(pendingSignups.email, email), gt(pendingSignups.expiresAt, now)));
    return row;
  },

  /** A new code for a pending sign-up (Resend) keeps the sign-up alive as long as that code. */
  async extendPendingSignup(tx: DbOrTx, email: string, expiresAt: Date): Promise<void> {
    await tx.update(pendingSignups).set({ expiresAt }).where(eq(pendingSignups.email, email));
  },

  async deletePendingSignup(tx: DbOrTx, email: string): Promise<void> {
    await tx.delete(pendingSignups).where(eq(pendingSignups.email, email));
  },

  /** The account of a verified sign-up. */
  async createUser(tx: DbOrTx, row: { email: string; firstName: string; lastName: string; now: Date }): Promise<UserRow> {
    const [created] = await tx
      .insert(users)
      .values({ email: row.email, firstName: row.firstName, lastName: row.lastName, createdAt: row.now, updatedAt: row.now })
      .returning();
    return returned(created);
  },

  /** Fills in names an existing account does not have yet (never overwrites them). */
  async fillMissingNames(tx: DbOrTx, userId: number, names: { firstName: string; lastName: string }): Promise<void> {
    await tx
      .update(users)
      .set({
        firstName: sql`coalesce(nullif(${users.firstName}, ''), ${names.firstName})`,
        lastName: sql`coalesce(nullif(${users.lastName}, ''), ${names.lastName})`,
      })
      .where(eq(users.id, userId));
  },

  async recordFailure(tx: DbOrTx, row: { email: string; clientKey: string | null; wrongCode: boolean; now: Date }): Promise<void> {
    await tx.insert(signInFailures).values({ email: row.email, clientKey: row.clientKey, wrongCode: row.wrongCode, createdAt: row.now });
  },

  /** Failed verifications from a client address after `since`, with the oldest one's time. */
  async failuresFromClientSince(tx: DbOrTx, clientKey: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | null>`min(${signInFailures.createdAt})` })
      .from(signInFailures)
      .where(and(eq(signInFailures.clientKey, clientKey), gt(signInFailures.createdAt, since)));
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  },

  /**
   * The time of the `cap`-th newest wrong code for the e-mail after `since`, or null when there are fewer: while one
   * exists the account is cooling down, until that failure leaves the window.
   */
  async capReachedAt(tx: DbOrTx, email: string, since: Date, cap: number): Promise<Date | null> {
    const [row] = await tx
      .select({ at: signInFailures.createdAt })
      .from(signInFailures)
      .where(and(eq(signInFailures.email, email), eq(signInFailures.wrongCode, true), gt(signInFailures.createdAt, since)))
      .orderBy(desc(signInFailures.createdAt))
      .offset(cap - 1)
      .limit(1);
    return row?.at ?? null;
  },

  async userHasRole(tx: DbOrTx, userId: number, roleName: string): Promise<boolean> {
    const rows = await tx
      .select({ id: userRoles.id })
      .from(userRoles)
      .innerJoin(roles, eq(userRoles.roleId, roles.id))
      .where(and(eq(userRoles.userId, userId), eq(roles.name, roleName)))
      .limit(1);
    return rows.length > 0;
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

  /** `createdAt` is when the user signed in: a rotated session keeps it, so rotation never extends the absolute lifetime. */
  async createSession(
    tx: DbOrTx,
    row: {
      idHash: string;
      userId: number;
      createdAt: Date;
      now: Date;
      expiresAt: Date;
      ip: string | null;
      userAgent: string | null;
      impersonatedRole?: string | null;
      verifiedWith?: 'code' | 'passkey' | 'recovery';
      factorVerifiedAt?: Date | null;
    },
  ): Promise<void> {
    await tx.insert(sessions).values({
      idHash: row.idHash,
      userId: row.userId,
      createdAt: row.createdAt,
      lastSeenAt: row.now,
      expiresAt: row.expiresAt,
      ip: row.ip,
      userAgent: row.userAgent,
      impersonatedRole: row.impersonatedRole ?? null,
      verifiedWith: row.verifiedWith ?? 'code',
      factorVerifiedAt: row.factorVerifiedAt ?? null,
    });
  },

  /** Ends every session of the user but the one given; returns how many ended. */
  async deleteOtherSessionsOfUser(tx: DbOrTx, userId: number, keepIdHash: string): Promise<number> {
    const rows = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash)))
      .returning({ id: sessions.idHash });
    return rows.length;
  },

  async findSession(tx: DbOrTx, idHash: string): Promise<typeof sessions.$inferSelect | undefined> {
    const [row] = await tx.select().from(sessions).where(eq(sessions.idHash, idHash));
    return row;
  },

  async deleteSession(tx: DbOrTx, idHash: string): Promise<boolean> {
    const rows = await tx.delete(sessions).where(eq(sessions.idHash, idHash)).returning({ id: sessions.idHash });
    return rows.length > 0;
  },

  /** The user's live sessions, most recently used first. */
  async sessionsOf(tx: DbOrTx, userId: number, now: Date) {
    return tx
      .select({
        idHash: sessions.idHash,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        userAgent: sessions.userAgent,
        ip: sessions.ip,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt));
  },

  /** Ends the user's session whose stored hash starts with `prefix` (16 hex characters); false when there is none. */
  async deleteSessionOfUser(tx: DbOrTx, userId: number, prefix: string): Promise<boolean> {
    const rows = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), like(sessions.idHash, `${prefix}%`)))
      .returning({ id: sessions.idHash });
    return rows.length > 0;
  },

  /** Ends every session of the user ("Sign out everywhere"); returns how many there were. */
  async deleteSessionsOfUser(tx: DbOrTx, userId: number): Promise<number> {
    const rows = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.idHash });
    return rows.length;
  },

  /** user_roles ids by role id, for the user-roles payload. */
  async assignmentIds(tx: DbOrTx, userId: number): Promise<Map<number, number>> {
    const rows = await tx.select({ id: userRoles.id, roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
    return new Map(rows.map((r) => [r.roleId, r.id]));
  },

  /**
   * Expired sessions (idle or past the absolute lifetime), codes and failures older than `codesBefore` (used or not),
   * and sign-ups whose code expired unverified.
   */
  async cleanup(tx: DbOrTx, now: Date, codesBefore: Date, createdBefore: Date): Promise<{ sessions: number; codes: number; pendingSignups: number }> {
    const s = await tx
      .delete(sessions)
      .where(sql`${sessions.expiresAt} < ${now} or ${sessions.createdAt} <= ${createdBefore}`)
      .returning({ id: sessions.idHash });
    const c = await tx.delete(signInCodes).where(lt(signInCodes.createdAt, codesBefore)).returning({ id: signInCodes.id });
    await tx.delete(signInFailures).where(lt(signInFailures.createdAt, codesBefore));
    const p = await tx.delete(pendingSignups).where(lte(pendingSignups.expiresAt, now)).returning({ email: pendingSignups.email });
    return { sessions: s.length, codes: c.length, pendingSignups: p.length };
  },
};
