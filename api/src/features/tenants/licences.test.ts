import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertRoadmapItem, signIn } from '../../../test/factories.js';
import { startTenantGraphServer, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let t: TestContext | undefined;
let graph: TenantGraphServer | undefined;
afterEach(async () => {
  await graph?.close();
  await t?.close();
  graph = undefined;
  t = undefined;
});

/** An E3-like subscription, and an Intune add-on that is suspended (its plans license nothing). */
const E3 = {
  skuPartNumber: 'SPE_E3',
  capabilityStatus: 'Enabled',
  servicePlans: [
    { servicePlanName: 'TEAMS1', provisioningStatus: 'Success' },
    { servicePlanName: 'EXCHANGE_S_ENTERPRISE', provisioningStatus: 'Success' },
    { servicePlanName: 'SHAREPOINTENTERPRISE', provisioningStatus: 'Success' },
    { servicePlanName: 'FORMS_PLAN_E3', provisioningStatus: 'Disabled' },
  ],
};
const INTUNE_SUSPENDED = {
  skuPartNumber: 'INTUNE_A',
  capabilityStatus: 'Suspended',
  servicePlans: [{ servicePlanName: 'INTUNE_A', provisioningStatus: 'Success' }],
};

const fake = (directoryId: string, extra: Partial<FakeTenant>): FakeTenant => ({
  directoryId,
  clientId: CLIENT,
  secret: `secret-${directoryId.slice(0, 4)}`,
  messages: [],
  issues: [],
  ...extra,
});

describe('licences and "Only products we license"', () => {
  it('reads each tenant’s licences with its Service Health run and keeps licensed, always-there and unknown products', async () => {
    graph = await startTenantGraphServer([
      fake(A, { skus: [E3, INTUNE_SUSPENDED] }),
      fake(B, { roles: ['ServiceMessage.Read.All', 'ServiceHealth.Read.All'] }),
    ]);
    t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '2' }, { now: '2026-11-26T12:00:00Z' });
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    const db = t.database.db;
    for (const [id, ext] of [
      ['470001', ['Microsoft Teams']],
      ['470002', ['Microsoft Intune']],
      ['470003', ['A product nobody maps']],
      ['470004', ['Microsoft Edge']],
      ['470005', ['Forms']],
      ['470006', []],
    ] as const) {
      await insertRoadmapItem(db, { externalId: id, products: [...ext] });
    }
    const listed = async () =>
      ((await request(t!.app).get('/api/unified/items?licensed=true&sources=roadmap&limit=100')).body.items as { itemId: string }[])
        .map((i) => i.itemId)
        .sort();
    // Nothing read yet: the filter has nothing to go by and keeps everything.
    expect(await listed()).toEqual(['470001', '470002', '470003', '470004', '470005', '470006']);

    for (const [name, directoryId] of [
      ['Contoso', A],
      ['Fabrikam', B],
    ] as const) {
      const res = await admin
        .post('/api/admin/tenants')
        .send({ name, tenantId: directoryId, clientId: CLIENT, clientSecret: `secret-${directoryId.slice(0, 4)}`, visibility: 'public' });
      expect(res.status).toBe(201);
    }
    expect((await admin.post('/api/admin/sync-service-health')).status).toBe(200);
    const tenants = (await admin.get('/api/admin/tenants')).body as { name: string; licences: { products: string[] } | null; licencesError: string | null }[];
    const contoso = tenants.find((x) => x.name === 'Contoso');
    expect(contoso?.licences?.products).toEqual(expect.arrayContaining(['Microsoft Teams', 'Exchange Online', 'Outlook', 'SharePoint', 'OneDrive']));
    expect(contoso?.licences?.products).not.toContain('Microsoft Intune');
    expect(contoso?.licences?.products).not.toContain('Forms');
    expect(tenants.find((x) => x.name === 'Fabrikam')).toMatchObject({
      licences: null,
      licencesError: expect.stringMatching(/grant the app Organization\.Read\.All/),
    });

    // Licensed (Teams), there for every tenant (Edge), unknown to the rules, and without products: kept. Intune (its
    // subscription suspended) and Forms (its plan disabled): left out.
    expect(await listed()).toEqual(['470001', '470003', '470004', '470006']);
    // The Triage panel says so for each item.
    const licence = async (id: string) => (await admin.get(`/api/triage/roadmap/${id}`)).body.licence;
    expect(await licence('470001')).toEqual({ status: 'licensed', tenants: ['Contoso'], unknownProducts: [] });
    expect(await licence('470002')).toMatchObject({ status: 'not_licensed' });
    expect(await licence('470003')).toEqual({ status: 'unknown', tenants: [], unknownProducts: ['A product nobody maps'] });
    // An admin says which plans license a product (Products tab): every tenant's licensed products follow at once.
    expect((await admin.post('/api/admin/product-mappings/initialize')).status).toBe(200);
    const mappings = (await admin.get('/api/admin/product-mappings')).body as { id: number; sourceProduct: string; licence: { source: string } }[];
    const forms = mappings.find((m) => m.sourceProduct === 'Forms');
    expect(forms?.licence.source).toBe('rule');
    const changed = await admin.put(`/api/admin/product-mappings/${forms?.id}`).send({ licencePlans: ['TEAMS*'] });
    expect(changed.body.licence).toEqual({ source: 'admin', plans: ['TEAMS*'] });
    expect(await listed()).toEqual(['470001', '470003', '470004', '470005', '470006']);
    expect((await admin.put(`/api/admin/product-mappings/${forms?.id}`).send({ licencePlans: ['not a plan!'] })).status).toBe(400);
    await admin.put(`/api/admin/product-mappings/${forms?.id}`).send({ licencePlans: null });
    expect(await listed()).toEqual(['470001', '470003', '470004', '470006']);
    // A rule or saved search can use it too: the filter is one of the list's.
    const saved = await admin.post('/api/saved-searches').send({ name: 'Licensed only', query: { licensed: true }, alertOn: ['new'] });
    expect(saved.status).toBe(201);
  });
});
