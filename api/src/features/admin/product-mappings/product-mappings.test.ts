import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../../test/context.js';
import { insertRoadmapItem, signIn } from '../../../../test/factories.js';
import { insertProductCatalog, productBreakdown } from '../../../../test/product-catalog.js';
import { productMappings } from '../../../db/schema/index.js';

let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>['agent'];

// Each test starts from its own database: the catalog, and no mappings yet.
beforeEach(async () => {
  t = await createTestContext({}, { now: '2026-02-07T12:00:00Z' });
  admin = (await signIn(t.app, t.ctx.db, { roles: ['Admin'] })).agent;
  await insertProductCatalog(t.ctx.db);
});
afterEach(async () => {
  await t.close();
});

const breakdown = () => productBreakdown(admin);

/** The mappings as an admin leaves them after Initialize, with the roadmap's Teams renamed and Planner added. */
async function initialized() {
  await insertRoadmapItem(t.ctx.db, { products: ['Planner'] });
  await admin.post('/api/admin/product-mappings/initialize').expect(200);
  const all = (await admin.get('/api/admin/product-mappings')).body as { id: number; sourceProduct: string; dataSource: string }[];
  const teams = all.find((m) => m.dataSource === 'roadmap' && m.sourceProduct === 'Microsoft Teams');
  await admin.put(`/api/admin/product-mappings/${teams?.id}`).send({ displayName: 'Teams' }).expect(200);
  return all;
}

describe('product mappings and their effect on analytics', () => {
  it('initializes one mapping per product and source, idempotently', async () => {
    const first = await admin.post('/api/admin/product-mappings/initialize');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 8, total: 8 });
    const list = await admin.get('/api/admin/product-mappings');
    expect(list.body.map((m: { dataSource: string; sourceProduct: string }) => `${m.dataSource}:${m.sourceProduct}`)).toEqual([
      'roadmap:Microsoft Teams',
      'roadmap:Microsoft Viva',
      'roadmap:Outlook',
      'roadmap:SharePoint',
      'message_center:Exchange Online',
      'message_center:Microsoft Teams',
      'message_center:Microsoft Viva',
      'message_center:SharePoint Online',
    ]);
    expect(list.body[0]).toEqual({
      id: expect.any(Number),
      sourceProduct: 'Microsoft Teams',
      dataSource: 'roadmap',
      displayName: 'Microsoft Teams',
      isActive: true,
      family: 'microsoft365',
      familySource: 'rule',
      ruleFamily: 'microsoft365',
      licence: { source: 'rule', plans: expect.arrayContaining(['TEAMS1']) },
      updatedAt: '2026-02-07T12:00:00.000Z',
    });
    // A renamed mapping survives a second run; only new products are added.
    await admin.put(`/api/admin/product-mappings/${list.body[0].id}`).send({ displayName: 'Teams' }).expect(200);
    await insertRoadmapItem(t.ctx.db, { products: ['Planner'] });
    const second = await admin.post('/api/admin/product-mappings/initialize');
    expect(second.body).toMatchObject({ created: 1, total: 9 });
    const third = await admin.post('/api/admin/product-mappings/initialize');
    expect(third.body).toMatchObject({ created: 0, total: 9 });
    const after = await admin.get('/api/admin/product-mappings');
    expect(after.body.find((m: { id: number }) => m.id === list.body[0].id).displayName).toBe('Teams');
  });
  it('renames, merges and hides products through mappings', async () => {
    const all = await initialized();
    const id = (source: string, product: string) => all.find((m) => m.dataSource === source && m.sourceProduct === product)!.id;
    // Rename both Teams mappings to "Teams" (roadmap one is already), merge SharePoint + SharePoint Online,
    // hide Viva in the Message Center only, and hide Exchange Online.
    await admin
      .put(`/api/admin/product-mappings/${id('message_center', 'Microsoft Teams')}`)
      .send({ displayName: ' Teams ' })
      .expect(200);
    await admin
      .put(`/api/admin/product-mappings/${id('roadmap', 'SharePoint')}`)
      .send({ displayName: 'SharePoint Online' })
      .expect(200);
    await admin
      .put(`/api/admin/product-mappings/${id('message_center', 'Microsoft Viva')}`)
      .send({ isActive: false })
      .expect(200);
    const hidden = await admin.put(`/api/admin/product-mappings/${id('message_center', 'Exchange Online')}`).send({ isActive: false });
    expect(hidden.body).toMatchObject({ sourceProduct: 'Exchange Online', isActive: false, displayName: 'Exchange Online' });

    expect(await breakdown()).toEqual([
      { product: 'Teams', total: 5, roadmapCount: 3, messageCenterCount: 2 },
      { product: 'SharePoint Online', total: 3, roadmapCount: 2, messageCenterCount: 1 },
      { product: 'Microsoft Viva', total: 1, roadmapCount: 1, messageCenterCount: 0 },
      { product: 'Outlook', total: 1, roadmapCount: 1, messageCenterCount: 0 },
      { product: 'Planner', total: 1, roadmapCount: 1, messageCenterCount: 0 },
    ]);

    // Two products of one item mapped to one name count the item once.
    await admin
      .put(`/api/admin/product-mappings/${id('roadmap', 'Outlook')}`)
      .send({ displayName: 'Teams' })
      .expect(200);
    expect((await breakdown())[0]).toEqual({ product: 'Teams', total: 5, roadmapCount: 3, messageCenterCount: 2 });

    // Deleting a mapping brings the product back under its own name.
    await admin.delete(`/api/admin/product-mappings/${id('message_center', 'Exchange Online')}`).expect(200);
    expect(await breakdown()).toContainEqual({ product: 'Exchange Online', total: 2, roadmapCount: 0, messageCenterCount: 2 });
  });
  it('validates mapping updates and answers 404 for unknown ids', async () => {
    await initialized();
    const [m] = await t.ctx.db.select().from(productMappings).limit(1);
    for (const body of [{}, { displayName: '' }, { isActive: 'yes' }, { family: 'azure' }]) {
      expect((await admin.put(`/api/admin/product-mappings/${m!.id}`).send(body)).status).toBe(400);
    }
    const none = await admin.put(`/api/admin/product-mappings/${m!.id}`).send({});
    expect(none.body.error.message).toBe('displayName, isActive, family or licencePlans is required');
    expect((await admin.put('/api/admin/product-mappings/999999').send({ isActive: true })).status).toBe(404);
    expect((await admin.delete('/api/admin/product-mappings/999999')).status).toBe(404);
    expect((await admin.delete('/api/admin/product-mappings/-1')).status).toBe(400);
  });
});
