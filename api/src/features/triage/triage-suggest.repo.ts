import { and, desc, eq, gte, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { items, triageRecords, users } from '../../db/schema/index.js';
import type { TriagePersonRow } from './triage-users.repo.js';
import { personNameSql } from './triage-users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far back past decisions count. */
const HISTORY_DAYS = 180;

/** What the team decided before about items of the same products. */
export interface PastDecisions {
  /** Who owned such items, most often first (at most 3). */
  owners: (TriagePersonRow & { count: number })[];
  /** How such items were decided (relevant, not relevant, in progress, done), most often first. */
  states: { state: TriageState; count: number }[];
  /** Items of the same products looked at. */
  products: string[];
}

const tr = alias(triageRecords, 'tr');
const i = alias(items, 'i');
const u = alias(users, 'u');

export function createTriageSuggestRepo(db: DbOrTx) {
  return {
    /** The decisions of the last 180 days on other records whose items share a product with this one. */
    async pastDecisions(recordId: number, products: readonly string[], now: Date): Promise<PastDecisions> {
      if (products.length === 0) return { owners: [], states: [], products: [] };
      const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
      const others = and(ne(tr.id, recordId), sql`${i.products} && ${sql.param([...products])}::text[]`, gte(tr.updatedAt, since));
      const count = sql<number>`count(*)::int`;
      const owners = await db
        .select({ id: u.id, email: u.email, name: sql<string>`${personNameSql('u')}`, count })
        .from(tr)
        .innerJoin(i, eq(i.id, tr.itemId))
        .innerJoin(u, eq(u.id, tr.ownerId))
        .where(others)
        .groupBy(u.id)
        .orderBy(desc(sql`count(*)`), u.id)
        .limit(3);
      const states = await db
        .select({ state: tr.state, count })
        .from(tr)
        .innerJoin(i, eq(i.id, tr.itemId))
        .where(and(others, ne(tr.state, 'new')))
        .groupBy(tr.state)
        .orderBy(desc(sql`count(*)`), tr.state);
      return {
        owners: owners.map((o) => ({ id: Number(o.id), email: o.email, name: o.name, count: Number(o.count) })),
        states: states.map((s) => ({ state: s.state as TriageState, count: Number(s.count) })),
        products: [...products],
      };
    },
  };
}
