import { and, eq, gt, isNotNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { apiTokens, passkeys, roles, sessions, userRoles, users } from '../db/schema/index.js';

/** The reads and writes the session and API-token middleware make on every signed-in request. */

export async function loadRolesOf(db: Db, userId: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: roles.id, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(userRoles.roleId, roles.id))
    .where(eq(userRoles.userId, userId))
    .orderBy(roles.name);
}

/** Whether the user has a passkey (admins' sessions are checked against ADMIN_SECOND_FACTOR). */
export async function hasPasskey(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return row !== undefined;
}

/** The unexpired session with this id hash, and its user. */
export async function liveSessionOf(db: Db, idHash: string, now: Date) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row;
}

/** Uses up a recovery code's proof of the session; false when it was already used (or never there). */
export async function consumeRecoveryFactor(db: DbOrTx, idHash: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ factorVerifiedAt: null })
    .where(and(eq(sessions.idHash, idHash), eq(sessions.verifiedWith, 'recovery'), isNotNull(sessions.factorVerifiedAt)))
    .returning({ id: sessions.idHash });
  return rows.length > 0;
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Records a use of the session and its new expiry (sliding expiry). */
export async function slideSession(db: Db, idHash: string, now: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.idHash, idHash));
}

export async function roleNamed(db: Db, name: string): Promise<{ id: number; name: string } | undefined> {
  const [r] = await db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.name, name));
  return r;
}

/** The API token with this hash, and its owner. */
export async function tokenOf(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      tokenId: apiTokens.id,
      lastUsedAt: apiTokens.lastUsedAt,
      lastUsedNetwork: apiTokens.lastUsedNetwork,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      scope: apiTokens.scope,
      user: users,
    })
    .from(apiTokens)
    .innerJoin(users, eq(apiTokens.userId, users.id))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function touchToken(db: Db, tokenId: number, now: Date, network: string | null): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: now, lastUsedNetwork: network }).where(eq(apiTokens.id, tokenId));
}
