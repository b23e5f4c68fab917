import { roadmapDateRange, type TimingWindow } from '@radar/contracts';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import type { NewItemRow } from '../db/schema.js';
import type { Logger } from '../logger.js';
import { messageTiming, timingSpan } from '../sources/rollout-timing.js';

/**
 * Values derived from the feed text rather than read from a field (a post's rollout windows; when an item reaches
 * tenants). The sync writes them with every row it writes. When the way they are read improves, DERIVED_VERSION
 * goes up and the rows written before are derived again at start (rederiveItems) — including removed and expired
 * items no feed will send again — without writing history: the feed did not change, our reading of it did.
 */
export const DERIVED_VERSION = 1;

type Derived = Pick<NewItemRow, 'timing' | 'timingStart' | 'timingEnd' | 'derivedVersion'>;

export function messageDerived(timing: TimingWindow[]): Derived {
  const span = timingSpan(timing);
  return { timing, timingStart: span?.start ?? null, timingEnd: span?.end ?? null, derivedVersion: DERIVED_VERSION };
}

export function roadmapDerived(releaseDate: string | null): Derived {
  const span = roadmapDateRange(releaseDate);
  return { timing: [], timingStart: span?.start ?? null, timingEnd: span?.end ?? null, derivedVersion: DERIVED_VERSION };
}

const BATCH = 500;

/**
 * Derives again every row written before DERIVED_VERSION, in batches; returns how many rows it read. A row a sync
 * rewrites meanwhile already carries the current version and is left as the sync wrote it.
 */
export async function rederiveItems(db: DbOrTx, log?: Logger): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.execute<{
      id: number;
      source: 'roadmap' | 'messages';
      body_html: string | null;
      created_date: Date | string | null;
      release_date: string | null;
    }>(sql`SELECT id, source, body_html, created_date, release_date FROM items WHERE derived_version < ${DERIVED_VERSION} ORDER BY id LIMIT ${BATCH}`);
    if (rows.length === 0) break;
    const values = rows.map((r) => {
      const published = r.created_date ? new Date(r.created_date) : null;
      const derived = r.source === 'messages' ? messageDerived(messageTiming(r.body_html ?? '', published)) : roadmapDerived(r.release_date);
      return sql`(${r.id}::int, ${JSON.stringify(derived.timing)}::jsonb, ${derived.timingStart}::date, ${derived.timingEnd}::date)`;
    });
    await db.execute(sql`
      UPDATE items SET timing = v.timing, timing_start = v.start, timing_end = v.finish, derived_version = ${DERIVED_VERSION}
      FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, timing, start, finish)
      WHERE items.id = v.id AND items.derived_version < ${DERIVED_VERSION}`);
    total += rows.length;
  }
  if (total > 0) log?.info({ rows: total, version: DERIVED_VERSION }, 'derived item fields brought up to date');
  return total;
}
