import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { itemListResponse } from '@radar/contracts';
import type { TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { mergePendingItemPages } from '../../../test/pending-index.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';

/**
 * The list's timing of change (sort and "rolling out in the next N days") and product families (rules, an admin's
 * override), on roadmap A (GA months from July 2025 to March 2026) and the 2026 Message Center posts, on 25 July 2026.
 */
let t: TestContext;
let server: ReplayServer;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];

beforeAll(async () => {
  ({ t, server } = await createReplayTestContext({}, { now: '2026-07-25T09:00:00Z' }));
  server.addMessages('2026A', JSON.parse(readFixture('messages-2026-a.json')));
  server.setMessages('2026A');
  await t.ctx.services.sync.syncRoadmap({ trigger: 'admin' });
  await t.ctx.services.sync.syncMessages({ trigger: 'admin' });
  admin = (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const list = async (query: Record<string, string | string[]>) => {
  const res = await request(t.app).get('/api/unified/items').query(query);
  expect(res.status).toBe(200);
  return itemListResponse.parse(res.body);
};
const ids = (body: { items: { itemId: string | null; messageId: string | null }[] }) => body.items.map((i) => i.itemId ?? i.messageId);

describe('timing of change', () => {
  it('rollingOut: rolling out now or starting within the window, posts and roadmap GA months alike', async () => {
    expect(ids(await list({ rollingOut: '7days' })).sort()).toEqual(['MC910001', 'MC910002']);
    // Within 90 days (to 23 October): the same; GA months of roadmap A are all in the past.
    expect(ids(await list({ rollingOut: '90days' })).sort()).toEqual(['MC910001', 'MC910002']);
    t.clock.set('2026-02-20T00:00:00Z');
    expect(ids(await list({ rollingOut: '30days', sources: 'roadmap' })).sort()).toEqual(['500002', '500003', '500004', '500005', '500011']);
    t.clock.set('2026-07-25T09:00:00Z');
  });

  it('sortField=timing: soonest first (or latest first), items without a timing last either way', async () => {
    await insertMessage(t.ctx.db, { externalId: 'MC990001', title: 'No schedule', createdDate: new Date('2026-07-01T00:00:00Z') });
    const soonest = await list({ sortField: 'timing', sortDirection: 'asc', limit: '100' });
    const starts = soonest.items.map((i) => i.timingStart);
    const dated = starts.filter((s): s is string => s !== null);
    expect(dated).toEqual([...dated].sort());
    expect(starts.slice(dated.length).every((s) => s === null)).toBe(true);
    expect(soonest.items[0]).toMatchObject({ itemId: '500006', timingStart: '2024-05-01' });
    const latest = await list({ sortField: 'timing', sortDirection: 'desc', limit: '100' });
    expect(latest.items[0]).toMatchObject({ messageId: 'MC910001' });
    expect(latest.items.at(-1)?.timingStart).toBeNull();
  });

  it('refuses an unknown window or sort, naming the field', async () => {
    const res = await request(t.app).get('/api/unified/items').query({ rollingOut: '1year' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('rollingOut');
  });
});

describe('product families', () => {
  it('filters by the families the rules give each product', async () => {
    const m365 = await list({ productFamilies: 'microsoft365', limit: '100' });
    expect(m365.total).toBe(16);
    expect(await list({ productFamilies: ['dynamics365', 'powerPlatform'] })).toMatchObject({ total: 0 });
  });

  it("an admin's override moves every item of the product at once, and back", async () => {
    await admin.post('/api/admin/product-mappings/initialize').expect(200);
    const mappings = (await admin.get('/api/admin/product-mappings')).body as { id: number; sourceProduct: string; family: string; familySource: string }[];
    const planner = mappings.find((m) => m.sourceProduct === 'Planner');
    expect(planner).toMatchObject({ family: 'microsoft365', familySource: 'rule' });
    await mergePendingItemPages(t.database.pool);
    const set = await admin.put(`/api/admin/product-mappings/${planner?.id}`).send({ family: 'powerPlatform' });
    expect(set.body).toMatchObject({ family: 'powerPlatform', familySource: 'admin', ruleFamily: 'microsoft365' });
    // The items it rewrote leave nothing pending in the GIN indexes for searches to read.
    expect(await mergePendingItemPages(t.database.pool)).toBe(0);
    expect(ids(await list({ productFamilies: 'powerPlatform' }))).toEqual(['500005']);
    // 500005 is also Microsoft Graph: still Microsoft 365 as well.
    expect(ids(await list({ productFamilies: 'microsoft365', search: '500005' }))).toEqual(['500005']);
    await admin.put(`/api/admin/product-mappings/${planner?.id}`).send({ family: null }).expect(200);
    expect(await list({ productFamilies: 'powerPlatform' })).toMatchObject({ total: 0 });
    const bad = await admin.put(`/api/admin/product-mappings/${planner?.id}`).send({ family: 'azure' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/family must be one of/);
  });

  it('the export carries the timing, the rollout windows and moves, and the families', async () => {
    const res = await request(t.app).get('/api/dashboard/export').query({ search: 'MC910001' });
    const [header, row] = parse(res.text, { bom: true }) as string[][];
    const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(cell('Timing of Change')).toBe('2026-07-21');
    expect(cell('Rollout Windows')).toBe(
      'Targeted Release: late July 2026 to early August 2026; General availability: mid-August 2026 to late August 2026; GCC: September 2026; GCC High: September 2026; DoD: September 2026',
    );
    expect(cell('Rollout Moves')).toBe('0');
    expect(cell('Product Families')).toBe('Microsoft 365');
  });

  it('feeds take the same filters', async () => {
    const feed = await request(t.app).get('/api/feeds/items.rss').query({ rollingOut: '7days' });
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('MC910001');
    expect(feed.text).not.toContain('MC910004');
  });
});
