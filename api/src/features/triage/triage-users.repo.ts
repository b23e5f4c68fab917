import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/**
 * A user's name as the triage screens show it, in SQL: first and last name, else the e-mail address; null when the
 * joined user `alias` is missing (an outer join found nobody). The SQL twin of `personName`.
 */
export function personNameSql(alias: string): SQL {
  const u = sql.raw(alias);
  return sql`CASE WHEN ${u}.id IS NULL THEN NULL ELSE coalesce(nullif(trim(concat_ws(' ', ${u}.first_name, ${u}.last_name)), ''), ${u}.email) END`;
}

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
