import { afterEach, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { installationBefore, migrationTags, type OldInstallation } from '../../test/migrations.js';

/**
 * An installation of any earlier version upgrades with its data: every newer migration runs at start in one
 * transaction, so a migration that writes to a table with a deferred trigger (the data version's) and a later one that
 * alters or indexes that table fail together on a database that has rows, never on an empty one.
 */
let old: OldInstallation | undefined;
afterEach(async () => {
  await old?.drop();
  old = undefined;
});

const tableExists = async (pool: pg.Pool, table: string) =>
  (await pool.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`public.${table}`])).rows[0].present as boolean;

/**
 * What every installation has, written so that each migration that rewrites data in place has rows to rewrite: items
 * (one removed), their history with a release date that moved, a link, and once the tables exist, tenants that
 * received the post and triage records (one of the removed item).
 */
async function fill(pool: pg.Pool): Promise<void> {
  const { rows: items } = await pool.query<{ id: number }>(
    `INSERT INTO items (source, external_id, title, content_hash, is_removed)
     VALUES ('roadmap', '500001', 'Teams: a roadmap item', 'h1', false), ('messages', 'MC500002', 'A post about 500001', 'h2', false),
            ('roadmap', '500003', 'Gone from the roadmap', 'h3', true)
     RETURNING id`,
  );
  const ids = items.map((i) => i.id);
  await pool.query(`INSERT INTO item_history (item_id, change_type, change_date) SELECT id, 'new', now() - interval '2 days' FROM unnest($1::int[]) AS id`, [
    ids,
  ]);
  await pool.query(
    `INSERT INTO item_history (item_id, change_type, change_date, changed_fields, previous_values, new_values)
     VALUES ($1, 'changed', now() - interval '1 day', '{releaseDate}', '{"releaseDate": "March CY2026"}', '{"releaseDate": "May CY2026"}')`,
    [ids[0]],
  );
  await pool.query(`INSERT INTO message_roadmap_links (message_item_id, roadmap_external_id, origin) VALUES ($1, '500001', 'auto')`, [ids[1]]);
  if (await tableExists(pool, 'item_tenants')) {
    const { rows: tenants } = await pool.query<{ id: number }>(
      `INSERT INTO tenants (name, directory_id) VALUES ('Contoso', '00000000-0000-0000-0000-000000000001') RETURNING id`,
    );
    await pool.query(`INSERT INTO item_tenants (item_id, tenant_id, first_seen_at) VALUES ($1, $2, now())`, [ids[1], tenants[0]!.id]);
  }
  if (await tableExists(pool, 'triage_records')) {
    await pool.query(`INSERT INTO triage_records (item_id) SELECT id FROM unnest($1::int[]) AS id`, [ids]);
  }
}

const counts = async (pool: pg.Pool) => {
  const n = async (table: string) => ((await tableExists(pool, table)) ? (await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n : null);
  return {
    items: await n('items'),
    history: await n('item_history'),
    links: await n('message_roadmap_links'),
    tenants: await n('item_tenants'),
    records: await n('triage_records'),
  };
};
const hasRecords = (c: { records: number | null }) => (c.records ?? 0) > 0;

// Every version that changed item or triage data in place, from just before it: each such write is followed, later in
// the same upgrade, by changes to the table it wrote.
const STARTS = [
  '0001_items_list_indexes',
  '0003_archive_versions_date_slips',
  '0014_tenant_access',
  '0020_triage_mail',
  '0023_triage_queue_indexes',
  '0037_triage_records_carry_source',
];

describe('upgrading an installation that has data', () => {
  it('knows every start point it names', () => {
    const tags = migrationTags();
    expect(STARTS.filter((tag) => !tags.includes(tag))).toEqual([]);
  });

  it.each(STARTS)(
    'from the version before %s, keeps every row',
    async (tag) => {
      old = await installationBefore(tag);
      await fill(old.pool);
      const before = await counts(old.pool);
      await old.upgrade();
      const after = await counts(old.pool);
      expect(after).toEqual({ ...before, tenants: before.tenants ?? 0, records: before.records ?? 0 });

      // And each backfill the upgrade ran did its work on the rows that were there (a post's tenants are the backfill's
      // from before 0014, its trigger's after).
      const tags = migrationTags();
      const ranBackfillOf = (migration: string) => tags.indexOf(tag) <= tags.indexOf(migration);
      const { rows } = await old.pool.query(
        `SELECT i.external_id, i.ga_moves, i.tenant_ids <> '{}' AS received, bool_or(tr.item_removed) AS record_removed
       FROM items i LEFT JOIN triage_records tr ON tr.item_id = i.id GROUP BY i.id ORDER BY i.external_id`,
      );
      expect(rows).toEqual([
        {
          external_id: '500001',
          ga_moves: ranBackfillOf('0003_archive_versions_date_slips') ? 1 : 0,
          received: false,
          record_removed: hasRecords(before) ? false : null,
        },
        { external_id: '500003', ga_moves: 0, received: false, record_removed: hasRecords(before) ? ranBackfillOf('0023_triage_queue_indexes') : null },
        { external_id: 'MC500002', ga_moves: 0, received: Boolean(before.tenants), record_removed: hasRecords(before) ? false : null },
      ]);
    },
    60_000,
  );
});
