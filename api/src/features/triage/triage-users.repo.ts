import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** The user a triage mail goes to. */
export function createUsersLookup(db: DbOrTx) {
  return {
    async byId(id: number): Promise<{ email: string; firstName: string | null } | null> {
      const [row] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, id)).limit(1);
      return row ?? null;
    },
  };
}
