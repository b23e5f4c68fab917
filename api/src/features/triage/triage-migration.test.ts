import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installationBefore, type OldInstallation } from '../../../test/migrations.js';

/**
 * Upgrading an installation whose team already triages: the migrations a new version brings run in one transaction,
 * and one that fills a new column of triage_records must leave the table in a state the next ALTER TABLE accepts
 * (its data-version trigger's events fired), or the whole upgrade is refused at start.
 */
let old: OldInstallation;
beforeAll(async () => {
  // Two versions back: the queue indexes before they carried the priority column, so the upgrade runs several.
  old = await installationBefore('0035_queue_indexes_carry_priority');
});
afterAll(() => old.drop());

describe('upgrading an installation with triage records', () => {
  it('runs every newer migration in one go, gives each record its item’s source, and keeps every record', async () => {
    const { rows: items } = await old.pool.query<{ id: number }>(
      `INSERT INTO items (source, external_id, title, content_hash)
       VALUES ('roadmap', '500001', 'A roadmap item', 'h1'), ('messages', 'MC500002', 'A post', 'h2'), ('health', 'EX500003', 'An incident', 'h3')
       RETURNING id`,
    );
    await old.pool.query(
      `INSERT INTO triage_records (item_id, state, due_date, priority) SELECT id, 'new', date '2026-12-01', 'high' FROM unnest($1::int[]) AS id`,
      [items.map((i) => i.id)],
    );
    const before = (await old.pool.query(`SELECT version FROM data_version WHERE id = 1`)).rows[0]?.version;

    await old.upgrade();

    const { rows } = await old.pool.query(
      `SELECT i.external_id, tr.source, tr.state, tr.priority FROM triage_records tr JOIN items i ON i.id = tr.item_id ORDER BY i.id`,
    );
    expect(rows).toEqual([
      { external_id: '500001', source: 'roadmap', state: 'new', priority: 'high' },
      { external_id: 'MC500002', source: 'messages', state: 'new', priority: 'high' },
      { external_id: 'EX500003', source: 'health', state: 'new', priority: 'high' },
    ]);
    const { rows: column } = await old.pool.query(
      `SELECT is_nullable FROM information_schema.columns WHERE table_name = 'triage_records' AND column_name = 'source'`,
    );
    expect(column).toEqual([{ is_nullable: 'NO' }]);
    // The filled records moved the data version (cached answers are not kept across it).
    expect(Number((await old.pool.query(`SELECT version FROM data_version WHERE id = 1`)).rows[0]?.version)).toBeGreaterThan(Number(before));
  });
});
