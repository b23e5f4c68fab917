import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { itemHistory, items } from '../../db/schema/index.js';
import { createTestDb, type TestDatabase } from '../../../test/db.js';
import { insertRoadmapItem } from '../../../test/factories.js';
import { releaseMoveColumns } from './release-moves.js';

/**
 * The date-slip counters: the sync's rule (releaseMoveColumns) and the hand-written backfill in migration 0003, which
 * counted the history recorded before the counters existed, must agree on every kind of date change.
 */
const MIGRATION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations/0003_archive_versions_date_slips.sql');
const backfillSql = () => {
  const text = fs.readFileSync(MIGRATION, 'utf8');
  return text.slice(text.indexOf('-- Written by hand'));
};

/** Date changes of one item, oldest first: [field, before, after]. */
type Change = ['releaseDate' | 'previewDate', string | null, string | null];
const CASES: Record<string, Change[]> = {
  '530001': [
    ['releaseDate', 'March CY2026', 'April CY2026'],
    ['releaseDate', 'April CY2026', 'August CY2026'],
  ],
  '530002': [
    ['releaseDate', 'January CY2027', 'October CY2026'],
    ['previewDate', null, 'June CY2026'],
    ['previewDate', 'June CY2026', 'July CY2026'],
  ],
  '530003': [
    ['releaseDate', 'CY2026', 'June CY2026'],
    ['releaseDate', 'June CY2026', 'june cy 2026'],
    ['previewDate', 'May CY2026', null],
  ],
  '530004': [['releaseDate', 'Q1 CY2026', 'Q2 CY2026']],
  '530005': [],
};

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.close());

describe('date-slip counters', () => {
  it('the sync counts each move and its shift, and stamps when dates last moved', () => {
    const now = new Date('2026-02-07T00:40:00Z');
    const diff = (c: Change) => ({ changedFields: [c[0]], previousValues: { [c[0]]: c[1] }, newValues: { [c[0]]: c[2] } });
    const zero = { gaMoves: 0, gaShiftMonths: 0, previewMoves: 0, previewShiftMonths: 0 };
    expect(releaseMoveColumns(diff(CASES['530001']![0]!), zero, now)).toEqual({ gaMoves: 1, gaShiftMonths: 1, releaseMovedAt: now });
    expect(releaseMoveColumns(diff(['previewDate', 'June CY2026', 'April CY2026']), { ...zero, previewMoves: 2, previewShiftMonths: 3 }, now)).toEqual({
      previewMoves: 3,
      previewShiftMonths: 1,
      releaseMovedAt: now,
    });
    expect(releaseMoveColumns(diff(['previewDate', null, 'June CY2026']), zero, now)).toEqual({});
    expect(releaseMoveColumns({ changedFields: ['status'], previousValues: { status: 'a' }, newValues: { status: 'b' } }, zero, now)).toEqual({});
  });

  it('the migration backfill counts recorded history exactly like the sync does', async () => {
    const expected: Record<string, Record<string, unknown>> = {};
    let day = 1;
    for (const [externalId, changes] of Object.entries(CASES)) {
      const row = await insertRoadmapItem(db.db, { externalId });
      let counters = { gaMoves: 0, gaShiftMonths: 0, previewMoves: 0, previewShiftMonths: 0, releaseMovedAt: null as Date | null };
      for (const [field, before, after] of changes) {
        const changeDate = new Date(Date.UTC(2026, 0, day++));
        await db.db.insert(itemHistory).values({
          itemId: row.id,
          changeType: 'changed',
          changeDate,
          changedFields: [field, 'status'],
          previousValues: { [field]: before, status: 'x' },
          newValues: { [field]: after, status: 'y' },
        });
        counters = {
          ...counters,
          ...releaseMoveColumns({ changedFields: [field], previousValues: { [field]: before }, newValues: { [field]: after } }, counters, changeDate),
        };
      }
      expected[externalId] = counters;
    }
    await db.pool.query(backfillSql());
    for (const externalId of Object.keys(CASES)) {
      const [row] = await db.db.select().from(items).where(eq(items.externalId, externalId));
      expect({
        id: externalId,
        gaMoves: row!.gaMoves,
        gaShiftMonths: row!.gaShiftMonths,
        previewMoves: row!.previewMoves,
        previewShiftMonths: row!.previewShiftMonths,
        releaseMovedAt: row!.releaseMovedAt,
      }).toEqual({ id: externalId, ...expected[externalId] });
      expect(row!.releaseMoves).toBe(row!.gaMoves + row!.previewMoves);
    }
    // Spot checks of the rule itself.
    expect(expected['530001']).toMatchObject({ gaMoves: 2, gaShiftMonths: 5 });
    expect(expected['530002']).toMatchObject({ gaMoves: 1, gaShiftMonths: -3, previewMoves: 1, previewShiftMonths: 1 });
    expect(expected['530003']).toMatchObject({ gaMoves: 1, gaShiftMonths: 0, previewMoves: 0 });
    expect(expected['530004']).toMatchObject({ gaMoves: 1, gaShiftMonths: 0 });
    expect(expected['530005']).toMatchObject({ gaMoves: 0, releaseMovedAt: null });
  });
});
