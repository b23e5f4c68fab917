import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { signIn } from '../../../../test/factories.js';
import { moderatorActivities } from '../../../db/schema/index.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];
const NOW = '2026-02-07T12:00:00.000Z';
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext({}, { now: NOW });
  admin = (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
});
afterAll(async () => {
  await t.close();
});

describe('moderator activity (empty)', () => {
  it('answers an empty first page and zero stats', async () => {
    expect((await admin.get('/api/admin/moderator-activities')).body).toEqual({ activities: [], total: 0, page: 1, totalPages: 1 });
    expect((await admin.get('/api/admin/moderator-activity-stats')).body).toEqual({
      totalActivities: 0,
      featuredItems: 0,
      linksAdded: 0,
      notesAdded: 0,
      recentActivity: 0,
    });
  });
});

describe('moderator activity', () => {
  beforeAll(async () => {
    // 45 activities, one per 6 hours going back from NOW (the first at NOW - 6h).
    const types = ['featured', 'link_added', 'note_added', 'unfeatured', 'note_updated'] as const;
    await t.ctx.db.insert(moderatorActivities).values(
      Array.from({ length: 45 }, (_, i) => ({
        userEmail: `mod${i % 3}@example.com`,
        actionType: types[i % types.length]!,
        itemType: i % 2 ? 'message_center' : 'roadmap',
        itemId: i % 2 ? `MC${1000 + i}` : String(400000 + i),
        itemTitle: `Item ${i}`,
        details: i === 0 ? { isFeatured: true } : null,
        createdAt: new Date(Date.parse(NOW) - (i + 1) * 6 * 60 * 60 * 1000),
      })),
    );
    // One from the future relative to the clock (clock skew) is counted in the total but not as recent.
    await t.ctx.db.insert(moderatorActivities).values({
      userEmail: 'mod0@example.com',
      actionType: 'featured',
      itemType: 'roadmap',
      itemId: '1',
      createdAt: new Date(Date.parse(NOW) + DAY),
    });
  });

  it('pages 20 at a time, newest first', async () => {
    const first = await admin.get('/api/admin/moderator-activities');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 46, page: 1, totalPages: 3 });
    expect(first.body.activities).toHaveLength(20);
    expect(first.body.activities[1]).toEqual({
      id: expect.any(Number),
      userId: null,
      userEmail: 'mod0@example.com',
      actionType: 'featured',
      itemType: 'roadmap',
      itemId: '400000',
      itemTitle: 'Item 0',
      details: { isFeatured: true },
      timestamp: '2026-02-07T06:00:00.000Z',
    });
    const third = await admin.get('/api/admin/moderator-activities?page=3');
    expect(third.body.activities).toHaveLength(6);
    expect(third.body.activities.at(-1).itemTitle).toBe('Item 44');
    const beyond = await admin.get('/api/admin/moderator-activities?page=9');
    expect(beyond.body).toMatchObject({ activities: [], total: 46, page: 9, totalPages: 3 });
    // Page 1 holds the future-dated row and Items 0-3.
    // Page 1 (limit 5) holds the future-dated row and Items 0-3.
    const small = await admin.get('/api/admin/moderator-activities?page=2&limit=5');
    expect(small.body).toMatchObject({ total: 46, page: 2, totalPages: 10 });
    expect(small.body.activities.map((a: { itemTitle: string }) => a.itemTitle)).toEqual(['Item 4', 'Item 5', 'Item 6', 'Item 7', 'Item 8']);
  });

  it('validates page and limit', async () => {
    for (const query of ['page=0', 'page=abc', 'limit=0', 'limit=101', 'page=1.5']) {
      const res = await admin.get(`/api/admin/moderator-activities?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe(query.split('=')[0]);
    }
  });

  it('computes the stats at the fixed clock', async () => {
    // 45 spaced 6 h apart: within the last 7 days (28 slots of 6 h) are items 0..27 = 28.
    const res = await admin.get('/api/admin/moderator-activity-stats');
    expect(res.body).toEqual({ totalActivities: 46, featuredItems: 10, linksAdded: 9, notesAdded: 9, recentActivity: 28 });
    t.clock.advance(DAY);
    expect((await admin.get('/api/admin/moderator-activity-stats')).body.recentActivity).toBe(25);
    t.clock.set(NOW);
  });
});
