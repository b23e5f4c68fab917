import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveAsInstalled, openTriageAsInstalled, seedItems } from '../../bench/seed-items.js';
import { connectDatabase, type Db } from '../../src/db/client.js';
import type { TestDatabase } from '../db.js';
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
 *
 * `settled`: as an installation that has run before (bench/seed-items.ts, settleAsInstalled: derived fields,
 * sanitised copies, triage records). The rows are written and settled in a staging copy of the table first, where the
 * search vector is a plain column, and then copied into items once: every write of an items row computes its stored
 * search vector again (two thirds of the seed's PostgreSQL time), and settling in place wrote each row three times.
 * The copy leaves a compact table, as settleAsInstalled's VACUUM FULL does.
 */
export async function seedItemsInBulk(database: TestDatabase, now: Date, count: number, opts: { settled?: boolean } = {}): Promise<void> {
  const { pool } = database;
  const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = 'items'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
  );
  for (const { name } of indexes) await pool.query(`DROP INDEX "${name}"`);
  if (opts.settled) await seedSettledThroughStage(database, now, count);
  else await seedItems(pool, now, count, () => undefined);
  for (const { definition } of indexes) await pool.query(definition);
  if (opts.settled) await openTriageAsInstalled(database.db, now);
}

const STAGE = 'seed_stage';

async function seedSettledThroughStage(database: TestDatabase, now: Date, count: number): Promise<void> {
  const { pool } = database;
  const { rows: columns } = await pool.query<{ name: string; generated: boolean }>(
    `SELECT quote_ident(attname) AS name, attgenerated <> '' AS generated FROM pg_attribute
     WHERE attrelid = 'public.items'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
  );
  // The same columns and defaults (ids from the items sequence), without the generated ones (the search vector).
  // (A seed stopped half-way leaves its stage behind in a database the next test may be given again.)
  await pool.query(`DROP SCHEMA IF EXISTS ${STAGE} CASCADE`);
  await pool.query(`CREATE SCHEMA ${STAGE}`);
  await pool.query(`CREATE TABLE ${STAGE}.items (LIKE public.items INCLUDING DEFAULTS, PRIMARY KEY (id))`);
  for (const { name } of columns.filter((c) => c.generated)) await pool.query(`ALTER TABLE ${STAGE}.items DROP COLUMN ${name}`);
  // The product's code resolves "items" by the search path: the staging table first, every other table as it is.
  const url = new URL(database.url);
  url.searchParams.set('options', `-c search_path=${STAGE},public`);
  const stage = connectDatabase(url.toString(), undefined, { max: 1 });
  try {
    await seedItems(stage.pool, now, count, () => undefined);
    await deriveAsInstalled(stage.db);
  } finally {
    await stage.close();
  }
  const written = columns
    .filter((c) => !c.generated)
    .map((c) => c.name)
    .join(', ');
  await pool.query(`INSERT INTO public.items (${written}) SELECT ${written} FROM ${STAGE}.items ORDER BY id`);
  await pool.query(`DROP SCHEMA ${STAGE} CASCADE`);
}
