import { and, asc, count, eq, gt, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { passkeys, users, webauthnChallenges } from '../../db/schema/index.js';

export type PasskeyRow = typeof passkeys.$inferSelect;
/** What a challenge was made for: adding a passkey, signing in, or a signed-in user confirming it is them. */
export type ChallengePurpose = 'register' | 'sign-in' | 'reauth';

/** Passkeys and the one-time challenges of their ceremonies. */
export function createPasskeysRepo(db: DbOrTx) {
  return {
    async ofUser(userId: number): Promise<PasskeyRow[]> {
      return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
    },

    async countOf(userId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      return Number(row?.n ?? 0);
    },

    async byCredentialId(credentialId: string): Promise<PasskeyRow | null> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
      return row ?? null;
    },

    /** The passkey, its row locked (a sign-in checks and moves its counter under the lock). */
    async lockedByCredentialId(credentialId: string): Promise<PasskeyRow | null> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).for('update');
      return row ?? null;
    },

    async insert(values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
      const [row] = await db.insert(passkeys).values(values).returning();
      if (!row) throw new Error('passkey insert returned nothing');
      return row;
    },

    async rename(userId: number, id: number, name: string): Promise<PasskeyRow | null> {
      const [row] = await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning();
      return row ?? null;
    },

    /** Removes one of the user's passkeys; answers its name, or null when the user has none by that id. */
    async remove(userId: number, id: number): Promise<{ name: string } | null> {
      const [row] = await db
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning({ name: passkeys.name });
      return row ?? null;
    },

    async userExists(userId: number): Promise<boolean> {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return row !== undefined;
    },

    async removeAllOf(userId: number): Promise<number> {
      const rows = await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
      return rows.length;
    },

    async used(id: number, counter: number, backedUp: boolean, now: Date): Promise<void> {
      await db.update(passkeys).set({ counter, backedUp, lastUsedAt: now }).where(eq(passkeys.id, id));
    },

    /** Keeps a challenge for one ceremony (and drops those that expired, so the table stays small). */
    async addChallenge(values: { challenge: string; purpose: ChallengePurpose; userId: number | null; expiresAt: Date }, now: Date): Promise<void> {
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
      await db.insert(webauthnChallenges).values(values);
    },

    /**
     * Uses a challenge up: it is deleted whether or not the answer then verifies. Answers its user (null for
     * sign-in), or undefined when there is no such live challenge for this purpose.
     */
    async takeChallenge(challenge: string, purpose: ChallengePurpose, now: Date): Promise<{ userId: number | null } | undefined> {
      const [row] = await db
        .delete(webauthnChallenges)
        .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, now)))
        .returning({ userId: webauthnChallenges.userId });
      return row;
    },
  };
}
