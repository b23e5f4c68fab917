import { describe, expect, it } from '@jest/globals';
import crypto from 'node:crypto';
import pg from 'pg';
import { createTestContext } from '../../test/context.js';
import { dropTestDatabase } from '../../test/db.js';
import { migrationTags } from '../../test/migrations.js';
import { createTestJobRunner } from '../../test/jobs.js';
import { applyMigrations } from './client.js';
import { ensureDatabase } from './embedded.js';

/**
 * Replicas start together (a deployment rolls out, a machine boots two workers): the schema work of start-up must
 * survive running in several processes at once. Without the lock both of these failed (a migration's table already
 * existed; Agenda's CREATE OR REPLACE FUNCTION hit a duplicate key in pg_proc and the process exited).
 */
describe('start-up schema changes from processes starting together', () => {
  it('four processes migrating an empty database at once: every migration applied once, none fails', async () => {
    const adminUrl = process.env.RADAR_TEST_PG_ADMIN_URL!;
    const name = `t_migrate_${crypto.randomBytes(4).toString('hex')}`;
    await ensureDatabase(adminUrl, name);
    const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
    try {
      await Promise.all([1, 2, 3, 4].map(() => applyMigrations(url)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const applied = await client.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
        expect(Number(applied.rows[0]!.n)).toBe(migrationTags().length);
        const items = await client.query<{ n: string }>('select count(*) as n from items');
        expect(Number(items.rows[0]!.n)).toBe(0);
      } finally {
        await client.end();
      }
    } finally {
      await dropTestDatabase(name);
    }
  });

  it("four job runners starting at once: Agenda's table, function and trigger are created once and all four start", async () => {
    const t = await createTestContext();
    try {
      // As on a database that has never run jobs (the template may hold Agenda's table from an earlier run).
      await t.database.pool.query('drop table if exists agenda_jobs cascade; drop function if exists update_agenda_jobs_updated_at() cascade');
      for (let round = 0; round < 3; round++) {
        if (round > 0) await t.database.pool.query('drop function if exists update_agenda_jobs_updated_at() cascade');
        const runners = [1, 2, 3, 4].map(() => createTestJobRunner(t));
        try {
          await Promise.all(runners.map((r) => r.start()));
        } finally {
          await Promise.all(runners.map((r) => r.stop()));
        }
        const trigger = await t.database.pool.query(`select 1 from pg_trigger where tgname = 'agenda_jobs_updated_at_trigger'`);
        expect(trigger.rowCount).toBe(1);
      }
    } finally {
      await t.close();
    }
  });
});
