import { eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { oauthStates } from '../../db/schema/index.js';

/** The OAuth consents in progress: kept at Authorize, taken (once) by the callback. */
export function createOAuthStatesRepo(db: DbOrTx) {
  return {
    async add(row: typeof oauthStates.$inferInsert): Promise<void> {
      await db.insert(oauthStates).values(row);
    },
    /** Removes and answers the consent of this state hash; undefined when there is none (used already, or never made). */
    async take(stateHash: string): Promise<typeof oauthStates.$inferSelect | undefined> {
      const [row] = await db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning();
      return row;
    },
    /** Removes the consents that expired before `now`; returns how many. */
    async sweep(now: Date): Promise<number> {
      return (await db.delete(oauthStates).where(lt(oauthStates.expiresAt, now)).returning({ h: oauthStates.stateHash })).length;
    },
  };
}
