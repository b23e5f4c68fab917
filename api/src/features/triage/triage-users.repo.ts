import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { roles, triageComments, triageRecords, userRoles, users } from '../../db/schema/index.js';
import { usersSeeingTenant, userSeesTenant } from './triage-audience.repo.js';

export interface TriagePersonRow {
  id: number;
  email: string;
  name: string;
}

/** A user's name as the triage screens show it: first and last name, else the e-mail address. */
export const personName = (u: { firstName: string | null; lastName: string | null; email: string }) =>
  [u.firstName, u.lastName].filter((p) => p?.trim()).join(' ') || u.email;

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

/** The people triage shows and lets one pick: owners, commenters, the people a comment mentions. */
export function createTriagePeopleRepo(db: DbOrTx) {
  return {
    /** The people of a record: its owner, its commenters, and every moderator and admin. */
    async peopleOfRecord(recordId: number): Promise<Set<number>> {
      const owner = db
        .select({ id: triageRecords.ownerId })
        .from(triageRecords)
        .where(and(eq(triageRecords.id, recordId), isNotNull(triageRecords.ownerId)));
      const commenters = db
        .select({ id: triageComments.authorId })
        .from(triageComments)
        .where(and(eq(triageComments.recordId, recordId), isNotNull(triageComments.authorId)));
      const staff = db
        .select({ id: userRoles.userId })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(roles.name, ['Admin', 'Moderator']));
      const rows = await owner.union(commenters).union(staff);
      return new Set(rows.map((r) => Number(r.id)));
    },

    /** The users with these ids that exist. */
    async existingUsers(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Set(rows.map((r) => r.id));
    },

    /** Of these users, those who may see the tenant's records (null: a record of no tenant, everyone). */
    usersSeeing(tenantId: number | null, ids: readonly number[]): Promise<Set<number>> {
      return usersSeeingTenant(db, tenantId, ids);
    },

    async person(id: number): Promise<TriagePersonRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row ? { id: row.id, email: row.email, name: personName(row) } : null;
    },

    /**
     * Users whose name or e-mail contains the text (case-insensitive), by name, at most `limit`; with `tenantId`, only
     * those who may see that tenant's records (the people a record of it may be given to).
     */
    async people(search: string | undefined, limit: number, tenantId?: number): Promise<TriagePersonRow[]> {
      const text = search?.trim().toLowerCase();
      const pattern = text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const matches = pattern
        ? sql`(lower(${users.email}) LIKE ${pattern} OR lower(concat_ws(' ', ${users.firstName}, ${users.lastName})) LIKE ${pattern})`
        : undefined;
      const seeing = tenantId !== undefined ? userSeesTenant(sql`${users.id}`, sql`${tenantId}::int`) : undefined;
      const rows = await db
        .select()
        .from(users)
        .where(and(matches, seeing))
        .orderBy(sql`lower(coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.email}))`)
        .limit(limit);
      return rows.map((r) => ({ id: r.id, email: r.email, name: personName(r) }));
    },

    /** Users by e-mail address (lower-case), for the mentions of a comment. */
    async usersByEmail(emails: readonly string[]): Promise<TriagePersonRow[]> {
      if (emails.length === 0) return [];
      const rows = await db
        .select()
        .from(users)
        .where(inArray(users.email, [...emails]));
      return rows.map((r) => ({ id: r.id, email: r.email, name: personName(r) }));
    },

    async peopleById(ids: readonly number[]): Promise<Map<number, TriagePersonRow>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select()
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Map(rows.map((r) => [r.id, { id: r.id, email: r.email, name: personName(r) }]));
    },
  };
}
