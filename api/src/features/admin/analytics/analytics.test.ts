import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../../test/factories.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-07T12:00:00Z' });
  admin = (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
  const db = t.ctx.db;
  // Roadmap: Teams x3 (one also Outlook), SharePoint x2, Viva x1, one removed Teams item (never counted).
  await insertRoadmapItem(db, { products: ['Microsoft Teams'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams', 'Outlook'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams'] });
  await insertRoadmapItem(db, { products: ['SharePoint'] });
  await insertRoadmapItem(db, { products: ['SharePoint'] });
  await insertRoadmapItem(db, { products: ['Microsoft Viva'] });
  await insertRoadmapItem(db, { products: ['Microsoft Teams'], isRemoved: true });
  // Message Center: Teams x2, Exchange Online x2, "SharePoint Online" x1, Viva x1.
  await insertMessage(db, { products: ['Microsoft Teams'] });
  await insertMessage(db, { products: ['Microsoft Teams', 'Exchange Online'] });
  await insertMessage(db, { products: ['Exchange Online'] });
  await insertMessage(db, { products: ['SharePoint Online'] });
  await insertMessage(db, { products: ['Microsoft Viva'] });
});
afterAll(async () => {
  await t.close();
});

const breakdown = async () => {
  const res = await admin.get('/api/admin/current-status-analytics');
  expect(res.status).toBe(200);
  return res.body.productBreakdown as { product: string; total: number; roadmapCount: number; messageCenterCount: number }[];
};

describe('current-status analytics', () => {
  it('counts unmapped products under their own names, largest first', async () => {
    expect(await breakdown()).toEqual([
      { product: 'Microsoft Teams', total: 5, roadmapCount: 3, messageCenterCount: 2 },
      { product: 'Exchange Online', total: 2, roadmapCount: 0, messageCenterCount: 2 },
      { product: 'Microsoft Viva', total: 2, roadmapCount: 1, messageCenterCount: 1 },
      { product: 'SharePoint', total: 2, roadmapCount: 2, messageCenterCount: 0 },
      { product: 'Outlook', total: 1, roadmapCount: 1, messageCenterCount: 0 },
      { product: 'SharePoint Online', total: 1, roadmapCount: 0, messageCenterCount: 1 },
    ]);
  });
  it('returns at most the top 12 products', async () => {
    for (let i = 1; i <= 14; i++) await insertMessage(t.ctx.db, { products: [`Zeta product ${String(i).padStart(2, '0')}`] });
    const list = await breakdown();
    expect(list).toHaveLength(12);
    expect(list[0]!.product).toBe('Microsoft Teams');
  });
});
