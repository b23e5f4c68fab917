import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import { seedItems } from '../../bench/seed-items.js';
import type { Db } from '../../src/db/client.js';
import { createUser, sessionCookieFor } from '../factories.js';
import { readFixture } from '../replay-server.js';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/m365');
const REAL = { json: 'roadmap-v1-2026-01-31.json', rss: 'roadmap-rss-2026-01-31.xml' };

/**
 * The roadmap the feed faults are played on: the recorded real feed of 2026-01-31 as JSON and as RSS (1,900 items,
 * the RSS with its BOM) when ../shared/fixtures/m365 is there, else the small recorded-format fixture (12 items,
 * its RSS twin built by the replay server).
 */
export function roadmapForFaults(): { json: string; rss?: string; items: number; withMoreInfo: number; label: string } {
  if (fs.existsSync(path.join(SHARED, REAL.json)) && fs.existsSync(path.join(SHARED, REAL.rss))) {
    const json = fs.readFileSync(path.join(SHARED, REAL.json), 'utf8');
    const items = JSON.parse(json) as { moreInfoLink: string | null }[];
    return {
      json,
      rss: fs.readFileSync(path.join(SHARED, REAL.rss), 'utf8'),
      items: items.length,
      withMoreInfo: items.filter((i) => i.moreInfoLink).length,
      label: 'recorded real feeds',
    };
  }
  const json = readFixture('roadmap-a.json');
  const items = JSON.parse(json) as { moreInfoLink: string | null }[];
  return { json, items: items.length, withMoreInfo: items.filter((i) => i.moreInfoLink).length, label: 'small recorded-format fixture' };
}

/** An Admin with a session, written straight to the database; returns the Cookie header value. */
export async function adminCookie(db: Db, email = 'admin@example.com'): Promise<string> {
  const user = await createUser(db, { roles: ['Admin'], email });
  return sessionCookieFor(db, user.id);
}

/**
 * The bench's item data set (bench/seed-items.ts, the same rows), written with the items table's secondary indexes
 * set aside and built again afterwards: building an index once over 100,000 rows costs a fraction of keeping 21
 * indexes current row by row. The indexes that back constraints stay; the table ends with the same indexes it began.
 * `settle` runs on the seeded rows before the indexes are built (rewriting every row then costs no index upkeep).
 */
export async function seedItemsInBulk(pool: Pool, now: Date, count: number, settle?: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = 'items'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
  );
  for (const { name } of indexes) await pool.query(`DROP INDEX "${name}"`);
  await seedItems(pool, now, count, () => undefined);
  await settle?.();
  for (const { definition } of indexes) await pool.query(definition);
}
