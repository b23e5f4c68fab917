import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** The user a triage mail goes to. */
export function createUsersLookup(db: DbOrTx) {
  return {
    /** Each address with the id of its account, or null when nobody signed up with it yet. */
    async byEmails(emails: readonly string[]): Promise<Map<string, number | null>> {
      const rows = emails.length
        ? await db
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(inArray(users.email, [...emails]))
        : [];
      const ids = new Map(rows.map((r) => [r.email, r.id]));
      return new Map(emails.map((e) => [e, ids.get(e) ?? null]));
    },

    async byId(id: number): Promise<{ email: string; firstName: string | null } | null> {
      const [row] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, id)).limit(1);
      return row ?? null;
    },
  };
}
