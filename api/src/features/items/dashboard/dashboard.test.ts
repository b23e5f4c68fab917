import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertMessage, insertRoadmapItem } from '../../../../test/factories.js';

// Clock: 2026-02-07T12:00:00Z; the 7-day window starts 2026-01-31T12:00:00Z.
let t: TestContext;
const d = (s: string) => new Date(s);

beforeAll(async () => {
  t = await createTestContext();
  const db = t.database.db;
  // new (created 2 days ago)
  await insertRoadmapItem(db, {
    externalId: '1',
    status: 'In development',
    products: ['Microsoft Teams'],
    cloudInstances: ['GCC'],
    createdDate: d('2026-02-05T00:00:00Z'),
    modifiedDate: d('2026-02-05T00:00:00Z'),
  });
  // updated (old, modified 1 day ago)
  await insertRoadmapItem(db, {
    externalId: '2',
    status: 'Rolling out',
    products: ['Outlook'],
    createdDate: d('2025-10-01T00:00:00Z'),
    modifiedDate: d('2026-02-06T00:00:00Z'),
    isFeatured: true,
    featuredAt: d('2026-02-01T00:00:00Z'),
  });
  // neither (old, modified 8 days ago)
  await insertRoadmapItem(db, {
    externalId: '3',
    status: 'Launched',
    products: ['SharePoint'],
    createdDate: d('2025-10-01T00:00:00Z'),
    modifiedDate: d('2026-01-30T00:00:00Z'),
  });
  // removed: counted nowhere
  await insertRoadmapItem(db, {
    externalId: '4',
    status: 'Launched',
    products: ['Removed product'],
    tags: ['Removed tag'],
    isRemoved: true,
    isFeatured: true,
    featuredAt: d('2026-02-07T00:00:00Z'),
    isDemo: true,
  });
  // message: new and updated (published 3 days ago, updated 2 hours later)
  await insertMessage(db, {
    externalId: 'MC1',
    tags: ['Admin impact', 'New feature'],
    products: ['Microsoft Teams', 'Windows'],
    createdDate: d('2026-02-04T00:00:00Z'),
    modifiedDate: d('2026-02-04T02:00:00Z'),
    isFeatured: true,
    featuredAt: d('2026-02-06T00:00:00Z'),
  });
  // message: updated within 30 minutes of publication: not Updated
  await insertMessage(db, {
    externalId: 'MC2',
    tags: ['Admin impact'],
    products: ['Exchange Online'],
    createdDate: d('2025-12-01T00:00:00Z'),
    modifiedDate: d('2025-12-01T00:30:00Z'),
  });
  // message: old, updated yesterday: Updated
  await insertMessage(db, {
    externalId: 'MC3',
    tags: ['User impact'],
    products: ['Windows'],
    createdDate: d('2025-12-01T00:00:00Z'),
    modifiedDate: d('2026-02-06T00:00:00Z'),
    isFeatured: true,
    featuredAt: d('2025-12-15T00:00:00Z'),
  });
  await t.database.pool.query(
    `INSERT INTO sync_history (source, trigger, status, started_at, finished_at) VALUES
       ('roadmap', 'schedule', 'success', '2026-02-07T10:00:00Z', '2026-02-07T10:01:00Z'),
       ('roadmap', 'schedule', 'failed',  '2026-02-07T11:00:00Z', '2026-02-07T11:01:00Z'),
       ('roadmap', 'schedule', 'success', '2026-02-06T10:00:00Z', '2026-02-06T10:01:00Z')`,
  );
});
afterAll(async () => {
  await t.close();
});

describe('filter options and counts', () => {
  it('GET /api/roadmap/filter-options lists distinct values of non-removed items', async () => {
    const res = await request(t.app).get('/api/roadmap/filter-options');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      products: ['Exchange Online', 'Microsoft Teams', 'Outlook', 'SharePoint', 'Windows'],
      roadmapStatuses: ['In development', 'Launched', 'Rolling out'],
      messageCenterTags: ['Admin impact', 'New feature', 'User impact'],
      cloudInstances: ['GCC', 'Worldwide (Standard Multi-Tenant)'],
    });
  });

  it('GET /api/analytics/filter-counts counts statuses and tags', async () => {
    const res = await request(t.app).get('/api/analytics/filter-counts');
    expect(res.body).toEqual({
      roadmapStatuses: [
        { name: 'In development', count: 1 },
        { name: 'Launched', count: 1 },
        { name: 'Rolling out', count: 1 },
      ],
      messageCenterTags: [
        { name: 'Admin impact', count: 2 },
        { name: 'New feature', count: 1 },
        { name: 'User impact', count: 1 },
      ],
    });
  });
});

describe('filter options and counts kept per data version', () => {
  it('answer again from what was computed, and afresh after any write to items', async () => {
    const own = await createTestContext();
    try {
      await insertRoadmapItem(own.database.db, { products: ['Microsoft Teams'], status: 'Launched' });
      const first = await request(own.app).get('/api/roadmap/filter-options');
      expect(first.body.products).toEqual(['Microsoft Teams']);
      expect((await request(own.app).get('/api/roadmap/filter-options')).body).toEqual(first.body);
      expect((await request(own.app).get('/api/analytics/filter-counts')).body.roadmapStatuses).toEqual([{ name: 'Launched', count: 1 }]);

      // A committed write moves the data version: the next answers include it.
      await insertRoadmapItem(own.database.db, { products: ['Microsoft Loop'], status: 'Rolling out' });
      expect((await request(own.app).get('/api/roadmap/filter-options')).body.products).toEqual(['Microsoft Loop', 'Microsoft Teams']);
      expect((await request(own.app).get('/api/analytics/filter-counts')).body.roadmapStatuses).toEqual([
        { name: 'Launched', count: 1 },
        { name: 'Rolling out', count: 1 },
      ]);
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/dashboard/stats', () => {
  it('counts by source and status, new/updated by the badge rules, featured, last sync and demo flag', async () => {
    const res = await request(t.app).get('/api/dashboard/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total: 6,
      bySource: { roadmap: 3, messages: 3, health: 0 },
      byStatus: [
        { name: 'In development', count: 1 },
        { name: 'Launched', count: 1 },
        { name: 'Rolling out', count: 1 },
      ],
      newLast7Days: 2,
      updatedLast7Days: 3,
      featured: 3,
      lastSync: { roadmap: '2026-02-07T10:01:00.000Z', messages: null, health: null },
      isDemoData: false,
    });
  });

  it('restricts to the given sources and validates them', async () => {
    const res = await request(t.app).get('/api/dashboard/stats').query({ sources: 'messages' });
    expect(res.body).toMatchObject({ total: 3, bySource: { roadmap: 0, messages: 3 }, byStatus: [], newLast7Days: 1, updatedLast7Days: 2, featured: 2 });
    const bad = await request(t.app).get('/api/dashboard/stats').query({ sources: 'rss' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toMatch(/^sources/);
  });

  it('flags demo data only when a non-removed demo item exists', async () => {
    await insertMessage(t.database.db, { externalId: 'MC-DEMO', isDemo: true, isRemoved: true });
    expect((await request(t.app).get('/api/dashboard/stats')).body.isDemoData).toBe(false);
    await t.database.pool.query(`UPDATE items SET is_removed = false WHERE external_id = 'MC-DEMO'`);
    expect((await request(t.app).get('/api/dashboard/stats')).body.isDemoData).toBe(true);
    await t.database.pool.query(`DELETE FROM items WHERE external_id = 'MC-DEMO'`);
  });
});

describe('featured items', () => {
  it('GET /api/featured/recent: newest featuredAt first, card shape, removed excluded, limit', async () => {
    const res = await request(t.app).get('/api/featured/recent').query({ limit: 6 });
    expect(res.status).toBe(200);
    expect(res.body.map((f: { id: string }) => f.id)).toEqual(['messages-MC1', 'roadmap-2', 'messages-MC3']);
    expect(res.body[0]).toEqual({
      source: 'messages',
      id: 'messages-MC1',
      itemId: null,
      messageId: 'MC1',
      title: expect.any(String),
      description: null,
      summary: expect.any(String),
      product: null,
      services: 'Microsoft Teams, Windows',
      status: null,
    });
    expect(res.body[1]).toMatchObject({ source: 'roadmap', itemId: '2', product: 'Outlook', services: null, status: 'Rolling out' });
    expect((await request(t.app).get('/api/featured/recent').query({ limit: 1 })).body).toHaveLength(1);
    expect((await request(t.app).get('/api/featured/recent')).body).toHaveLength(3);
    expect((await request(t.app).get('/api/featured/recent').query({ limit: 0 })).status).toBe(400);
  });

  it('GET /api/featured/timeframe: featured within the window', async () => {
    const res = await request(t.app).get('/api/featured/timeframe').query({ startDate: '2026-01-31T00:00:00Z', endDate: '2026-02-07T12:00:00Z', limit: 6 });
    expect(res.status).toBe(200);
    expect(res.body.map((f: { id: string }) => f.id)).toEqual(['messages-MC1', 'roadmap-2']);
    const bad = await request(t.app).get('/api/featured/timeframe').query({ startDate: 'yesterday', endDate: '2026-02-07T12:00:00Z' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('startDate');
    const reversed = await request(t.app).get('/api/featured/timeframe').query({ startDate: '2026-02-07T00:00:00Z', endDate: '2026-02-01T00:00:00Z' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.issues[0].path).toBe('endDate');
  });
});
