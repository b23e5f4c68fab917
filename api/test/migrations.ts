import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../src/db/client.js';
import { ensureDatabase } from '../src/db/embedded.js';
import { dropTestDatabase } from './db.js';

interface Journal {
  entries: { tag: string }[];
}

const readJournal = () => JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as Journal;

/** The tags of every migration, in the order they run. */
export function migrationTags(): string[] {
  return readJournal().entries.map((e) => e.tag);
}

/**
 * An empty database of its own, brought up to just before the migration tagged `tag` (as an installation of that
 * version is), and the way to take it on through every newer migration in one go, as an upgrade does at start.
 */
export interface OldInstallation {
  pool: pg.Pool;
  upgrade(): Promise<void>;
  drop(): Promise<void>;
}

export async function installationBefore(tag: string): Promise<OldInstallation> {
  const adminUrl = process.env.RADAR_TEST_PG_ADMIN_URL;
  if (!adminUrl) throw new Error('RADAR_TEST_PG_ADMIN_URL is not set: run the tests through jest (test/global-setup.ts)');
  const journal = readJournal();
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut < 1) throw new Error(`installationBefore: no migration before ${tag}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-migration-'));
  const dir = path.join(work, 'migrations');
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const entries = journal.entries.slice(0, cut);
  for (const e of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));

  const name = `m_${crypto.randomBytes(4).toString('hex')}`;
  await ensureDatabase(adminUrl, name);
  const pool = new pg.Pool({ connectionString: adminUrl.replace(/\/[^/]*$/, `/${name}`), max: 2 });
  await migrate(drizzle(pool), { migrationsFolder: dir });
  return {
    pool,
    upgrade: () => migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR }),
    async drop() {
      await pool.end();
      await dropTestDatabase(name);
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
