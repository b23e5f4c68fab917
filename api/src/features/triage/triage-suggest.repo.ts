import { sql } from 'drizzle-orm';
import type { TriageState } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
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

export function createTriageSuggestRepo(db: DbOrTx) {
  return {
    /** The decisions of the last 180 days on other records whose items share a product with this one. */
    async pastDecisions(recordId: number, products: readonly string[], now: Date): Promise<PastDecisions> {
      if (products.length === 0) return { owners: [], states: [], products: [] };
      const since = new Date(now.getTime() - HISTORY_DAYS * DAY_MS);
      const others = sql`tr.id <> ${recordId} AND i.products && ${sql.param([...products])}::text[] AND tr.updated_at >= ${since}`;
      const { rows: owners } = await db.execute<{ id: number; email: string; name: string; count: number }>(sql`
        SELECT u.id, u.email, ${personNameSql('u')} AS name, count(*)::int AS count
        FROM triage_records tr JOIN items i ON i.id = tr.item_id JOIN users u ON u.id = tr.owner_id
        WHERE ${others}
        GROUP BY u.id ORDER BY count(*) DESC, u.id LIMIT 3`);
      const { rows: states } = await db.execute<{ state: TriageState; count: number }>(sql`
        SELECT tr.state, count(*)::int AS count
        FROM triage_records tr JOIN items i ON i.id = tr.item_id
        WHERE ${others} AND tr.state <> 'new'
        GROUP BY tr.state ORDER BY count(*) DESC, tr.state`);
      return {
        owners: owners.map((o) => ({ id: Number(o.id), email: o.email, name: o.name, count: Number(o.count) })),
        states: states.map((s) => ({ state: s.state, count: Number(s.count) })),
        products: [...products],
      };
    },
  };
}
