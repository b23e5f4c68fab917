import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/embedded.js';

/**
 * The security migration on an installation with data from before it: nothing is lost; sign-in mail that holds a code
 * in clear loses that content; digest subscribers who were receiving digests keep receiving them; role changes end
 * sessions from then on.
 */
const TAG = /_security_asvs$/;
let work: string;
let pool: pg.Pool;
let dbName: string;
const adminUrl = () => process.env.RADAR_TEST_PG_ADMIN_URL!;

/** A copy of the migrations folder that stops just before the security migration. */
function migrationsBefore(): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => TAG.test(e.tag));
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
  await migrate(drizzle(pool), { migrationsFolder: migrationsBefore() });
});
afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.end();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('migrating an installation from before the security work', () => {
  it('keeps every row, deletes clear-text codes from the outbox, keeps digest readers, and ends sessions on role changes', async () => {
    await pool.query(`INSERT INTO roles (name, is_built_in) VALUES ('Admin', true), ('Moderator', true), ('User', true)`);
    await pool.query(`INSERT INTO users (id, email, first_name) VALUES (1, 'old@example.com', 'Old')`);
    await pool.query(`INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ('h1', 1, now() + interval '1 day')`);
    await pool.query(`
      INSERT INTO mail_outbox (kind, to_address, subject, html, text, status) VALUES
        ('sign-in-code', 'old@example.com', '123456 is your M365 Radar sign-in code', '<b>123456</b>', 'code 123456', 'sent'),
        ('sign-in-code', 'old@example.com', '654321 is your M365 Radar sign-in code', '<b>654321</b>', 'code 654321', 'pending'),
        ('weekly-digest', 'reader@example.com', 'Your digest', '<p>digest</p>', 'digest', 'sent')`);
    await pool.query(`
      INSERT INTO digest_subscribers (email, origin, is_active) VALUES
        ('visitor@example.com', 'signup', true), ('member@example.com', 'account', false), ('gone@example.com', 'signup', false)`);

    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR });

    const outbox = (await pool.query(`SELECT kind, subject, html, text, status FROM mail_outbox ORDER BY id`)).rows;
    expect(outbox).toHaveLength(3);
    expect(JSON.stringify(outbox)).not.toMatch(/123456|654321/);
    expect(outbox.map((r) => [r.kind, r.status])).toEqual([
      ['sign-in-code', 'sent'],
      ['sign-in-code', 'failed'],
      ['weekly-digest', 'sent'],
    ]);
    expect(outbox[2]).toMatchObject({ subject: 'Your digest', text: 'digest' });
    const digest = (await pool.query(`SELECT email, is_active, confirmed_at IS NOT NULL AS confirmed FROM digest_subscribers ORDER BY id`)).rows;
    expect(digest).toEqual([
      { email: 'visitor@example.com', is_active: true, confirmed: true },
      { email: 'member@example.com', is_active: false, confirmed: true },
      { email: 'gone@example.com', is_active: false, confirmed: false },
    ]);
    expect((await pool.query(`SELECT email FROM users`)).rows).toEqual([{ email: 'old@example.com' }]);
    expect((await pool.query(`SELECT id_hash FROM sessions`)).rows).toEqual([{ id_hash: 'h1' }]);
    await pool.query(`INSERT INTO user_roles (user_id, role_id) SELECT 1, id FROM roles WHERE name = 'Moderator'`);
    expect((await pool.query(`SELECT id_hash FROM sessions`)).rows).toEqual([]);
  });
});
