import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertMessage, signIn } from '../../../../test/factories.js';
import { insertProductCatalog, productBreakdown } from '../../../../test/product-catalog.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];

beforeAll(async () => {
  t = await createTestContext({}, { now: '2026-02-07T12:00:00Z' });
  admin = (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
  await insertProductCatalog(t.ctx.db);
});
afterAll(async () => {
  await t.close();
});

const breakdown = () => productBreakdown(admin);

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
