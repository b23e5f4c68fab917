import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../db/client.js';
import { ensureDatabase } from '../../db/embedded.js';

/**
 * Upgrading an installation whose team already triages: the migrations a new version brings run in one transaction,
 * and one that fills a new column of triage_records must leave the table in a state the next ALTER TABLE accepts
 * (its data-version trigger's events fired), or the whole upgrade is refused at start.
 */
let work: string;
let pool: pg.Pool;
let dbName: string;
const adminUrl = () => process.env.RADAR_TEST_PG_ADMIN_URL!;

/** A copy of the migrations folder that stops just before the migration tagged `tag`. */
function migrationsBefore(tag: RegExp): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => tag.test(e.tag));
  expect(cut).toBeGreaterThan(0);
  const dir = path.join(work, 'migrations');
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, cut);
  for (const e of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return dir;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-migration-'));
  dbName = `m_${crypto.randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl(), dbName);
  pool = new pg.Pool({ connectionString: adminUrl().replace(/\/[^/]*$/, `/${dbName}`), max: 2 });
  // Two versions back: the queue indexes before they carried the priority column, so the upgrade runs several.
  await migrate(drizzle(pool), { migrationsFolder: migrationsBefore(/_queue_indexes_carry_priority$/) });
});
afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.end();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('upgrading an installation with triage records', () => {
  it('runs every newer migration in one go, gives each record its item’s source, and keeps every record', async () => {
    const { rows: items } = await pool.query<{ id: number }>(
      `INSERT INTO items (source, external_id, title, content_hash)
       VALUES ('roadmap', '500001', 'A roadmap item', 'h1'), ('messages', 'MC500002', 'A post', 'h2'), ('health', 'EX500003', 'An incident', 'h3')
       RETURNING id`,
    );
    await pool.query(
      `INSERT INTO triage_records (item_id, state, due_date, priority) SELECT id, 'new', date '2026-12-01', 'high' FROM unnest($1::int[]) AS id`,
      [items.map((i) => i.id)],
    );
    const before = (await pool.query(`SELECT version FROM data_version WHERE id = 1`)).rows[0]?.version;

    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR });

    const { rows } = await pool.query(
      `SELECT i.external_id, tr.source, tr.state, tr.priority FROM triage_records tr JOIN items i ON i.id = tr.item_id ORDER BY i.id`,
    );
    expect(rows).toEqual([
      { external_id: '500001', source: 'roadmap', state: 'new', priority: 'high' },
      { external_id: 'MC500002', source: 'messages', state: 'new', priority: 'high' },
      { external_id: 'EX500003', source: 'health', state: 'new', priority: 'high' },
    ]);
    const { rows: column } = await pool.query(
      `SELECT is_nullable FROM information_schema.columns WHERE table_name = 'triage_records' AND column_name = 'source'`,
    );
    expect(column).toEqual([{ is_nullable: 'NO' }]);
    // The filled records moved the data version (cached answers are not kept across it).
    expect(Number((await pool.query(`SELECT version FROM data_version WHERE id = 1`)).rows[0]?.version)).toBeGreaterThan(Number(before));
  });
});
