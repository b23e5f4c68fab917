import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { ItemListResponse } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem } from '../../../test/factories.js';

/** The archive (includeRemoved), date slips (releaseMoved, sortField=releaseMoves) and what they leave alone. */
let t: TestContext;
const at = (s: string) => new Date(s);

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-07T12:00:00Z' });
  const db = t.database.db;
  await insertRoadmapItem(db, { externalId: '520001', title: 'Teams: never moved', createdDate: at('2026-02-01T00:00:00Z') });
  await insertRoadmapItem(db, {
    externalId: '520002',
    title: 'Teams: slipped three times',
    createdDate: at('2025-06-01T00:00:00Z'),
    gaMoves: 2,
    gaShiftMonths: 5,
    previewMoves: 1,
    previewShiftMonths: 1,
    releaseMovedAt: at('2026-01-20T00:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '520003',
    title: 'Teams: slipped once, lately',
    createdDate: at('2025-07-01T00:00:00Z'),
    gaMoves: 1,
    gaShiftMonths: -1,
    releaseMovedAt: at('2026-02-05T00:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '520004',
    title: 'Teams: left the roadmap',
    createdDate: at('2025-08-01T00:00:00Z'),
    isRemoved: true,
    removedAt: at('2026-02-06T00:40:00Z'),
    gaMoves: 4,
    releaseMovedAt: at('2026-02-01T00:00:00Z'),
  });
  await insertMessage(db, {
    externalId: 'MC520001',
    title: 'Teams: an active post',
    createdDate: at('2026-01-15T00:00:00Z'),
    endDate: at('2026-06-01T07:00:00Z'),
  });
  await insertMessage(db, {
    externalId: 'MC520002',
    title: 'Teams: an expired post',
    createdDate: at('2025-12-01T00:00:00Z'),
    endDate: at('2026-02-03T08:00:00Z'),
    isRemoved: true,
    removedAt: at('2026-02-07T00:40:00Z'),
  });
});
afterAll(() => t.close());

async function list(query: Record<string, string> = {}) {
  const res = await request(t.app).get('/api/unified/items').query(query);
  expect(res.status).toBe(200);
  const body = res.body as ItemListResponse;
  return { ...body, ids: body.items.map((i) => i.itemId ?? i.messageId) };
}

describe('the archive: includeRemoved', () => {
  it('lists removed roadmap items and expired posts only when asked, dated', async () => {
    expect((await list()).ids).toEqual(['520001', 'MC520001', '520003', '520002']);
    const archive = await list({ includeRemoved: 'true' });
    expect(archive.ids).toEqual(['520001', 'MC520001', 'MC520002', '520004', '520003', '520002']);
    expect(archive.total).toBe(6);
    expect(archive.items.find((i) => i.messageId === 'MC520002')).toMatchObject({
      isRemoved: true,
      removedAt: '2026-02-07T00:40:00.000Z',
      endDate: '2026-02-03T08:00:00.000Z',
    });
    expect(archive.items.find((i) => i.itemId === '520001')).toMatchObject({ isRemoved: false, removedAt: null });
    expect((await list({ includeRemoved: 'true', sources: 'messages' })).ids).toEqual(['MC520001', 'MC520002']);
    expect((await list({ includeRemoved: 'true', sortField: 'modifiedDate', sortDirection: 'asc', limit: '2' })).total).toBe(6);
  });

  it('finds a removed or expired item by its exact id with the archive off, and by words only with it on', async () => {
    expect((await list({ search: 'MC520002', sources: 'messages', limit: '50' })).ids).toEqual(['MC520002']);
    expect((await list({ search: '520002' })).ids).toEqual(['520002', 'MC520002']);
    expect((await list({ search: 'expired post' })).ids).toEqual([]);
    expect((await list({ search: 'expired post', includeRemoved: 'true' })).ids).toEqual(['MC520002']);
  });

  it('never counts removed items in the default totals and stats', async () => {
    expect((await list()).total).toBe(4);
    const stats = await request(t.app).get('/api/dashboard/stats');
    expect(stats.body).toMatchObject({ total: 4, bySource: { roadmap: 3, messages: 1 } });
    const counts = await request(t.app).get('/api/analytics/filter-counts');
    expect(counts.body.roadmapStatuses).toEqual([{ name: 'In development', count: 3 }]);
  });

  it('rejects a bad includeRemoved value naming it', async () => {
    const res = await request(t.app).get('/api/unified/items').query({ includeRemoved: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('includeRemoved');
  });
});

describe('date slips in the list', () => {
  it('rows carry releaseMoves (roadmap) or null (messages)', async () => {
    const { items } = await list();
    expect(items.find((i) => i.itemId === '520002')!.releaseMoves).toEqual({
      total: 3,
      gaMoves: 2,
      gaShiftMonths: 5,
      previewMoves: 1,
      previewShiftMonths: 1,
      lastMovedAt: '2026-01-20T00:00:00.000Z',
    });
    expect(items.find((i) => i.itemId === '520001')!.releaseMoves).toMatchObject({ total: 0, lastMovedAt: null });
    expect(items.find((i) => i.messageId === 'MC520001')!.releaseMoves).toBeNull();
  });

  it('filters by a move within the last 7 or 30 days (the clock is 2026-02-07 12:00)', async () => {
    expect((await list({ releaseMoved: '7days' })).ids).toEqual(['520003']);
    expect((await list({ releaseMoved: '30days' })).ids).toEqual(['520003', '520002']);
    expect((await list({ releaseMoved: '30days', includeRemoved: 'true' })).ids).toEqual(['520004', '520003', '520002']);
    expect((await list({ releaseMoved: '30days', sources: 'messages' })).ids).toEqual([]);
    const bad = await request(t.app).get('/api/unified/items').query({ releaseMoved: '90days' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('releaseMoved');
  });

  it('sorts by most slipped (moves, then newest), either way round, also while searching', async () => {
    expect((await list({ sortField: 'releaseMoves' })).ids).toEqual(['520002', '520003', '520001', 'MC520001']);
    expect((await list({ sortField: 'releaseMoves', sortDirection: 'asc' })).ids).toEqual(['MC520001', '520001', '520003', '520002']);
    expect((await list({ sortField: 'releaseMoves', includeRemoved: 'true', limit: '2' })).ids).toEqual(['520004', '520002']);
    // Equal relevance: the chosen sort decides.
    expect((await list({ sortField: 'releaseMoves', search: 'slipped' })).ids).toEqual(['520002', '520003']);
  });
});
