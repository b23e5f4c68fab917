import { afterEach, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { readFixture } from '../../../test/replay-server.js';
import { startTenantGraphServer, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import { usageOf } from '../../../test/tenant-usage-reports.js';
import { readDataVersion } from '../../db/data-version.js';
import { items, tenants } from '../../db/schema/index.js';
import type { JobRunner } from '../../jobs/agenda.js';
import { TENANT_SYNC_JOB } from '../../jobs/tenant-sync.jobs.js';
import type { UsageReading } from '../../sources/usage-reports.js';
import { createTenantsService } from '../tenants/tenants.service.js';
import { createUsageRepo } from '../usage/usage.repo.js';

// Each test has its own database (and, where it reads Graph, its own local Graph and job runner).
const A = '11111111-1111-4111-8111-111111111111';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const NOW = '2026-11-27T06:00:00Z';
/** A subscription whose plans license Teams and Exchange Online. */
const E3 = {
  skuPartNumber: 'SPE_E3',
  capabilityStatus: 'Enabled',
  servicePlans: [
    { servicePlanName: 'TEAMS1', provisioningStatus: 'Success' },
    { servicePlanName: 'EXCHANGE_S_ENTERPRISE', provisioningStatus: 'Success' },
  ],
};

let t: TestContext | undefined;
let graph: TenantGraphServer | undefined;
let runner: JobRunner | undefined;
afterEach(async () => {
  await runner?.stop();
  await graph?.close();
  await t?.close();
  runner = graph = t = undefined;
});

/** Rows of a tenant as level and reason by item id. */
async function rowsOf(context: TestContext, tenantId: number): Promise<Record<number, { level: number; reason: string; workload: string | null }>> {
  const { rows } = await context.database.pool.query<{ item_id: number; level: number; reason: string; workload: string | null }>(
    'SELECT item_id, level, reason, workload FROM item_relevance WHERE tenant_id = $1',
    [tenantId],
  );
  return Object.fromEntries(rows.map((r) => [r.item_id, { level: r.level, reason: r.reason, workload: r.workload }]));
}

/** A tenant's usage as if its reports were read now: Teams 950 of 1,000 licensed, Exchange 40 of 1,000, SharePoint 120 of 1,000. */
async function storeUsage(context: TestContext, tenantId: number, teams = 950) {
  const day = '2026-11-25';
  const readings: UsageReading[] = [
    { workload: 'teams', reportDate: day, periodDays: 30, activeUsers: teams, licensedUsers: 1000 },
    { workload: 'exchange', reportDate: day, periodDays: 30, activeUsers: 40, licensedUsers: 1000 },
    { workload: 'sharepoint', reportDate: day, periodDays: 30, activeUsers: 120, licensedUsers: 1000 },
  ];
  const repo = createUsageRepo(context.database.db);
  const now = context.clock.now();
  await repo.store(tenantId, readings, now, '2025-01-01');
  await repo.setStatus(tenantId, { at: now, read: true, error: null, permissionMissing: false });
}

async function context(env: Record<string, string> = {}, now = NOW) {
  t = await createTestContext(env, { now });
  return t;
}

describe('relevance after a tenant’s usage is read', () => {
  it('the tenant’s job computes a row per live roadmap item and per post it received, from the usage it read', async () => {
    const messages = JSON.parse(readFixture('messages-a.json')) as unknown[];
    graph = await startTenantGraphServer([
      {
        directoryId: A,
        clientId: CLIENT,
        secret: 'secret-A',
        messages,
        issues: [],
        usage: usageOf({ date: '2026-11-25', services: { teams: [950, 50], exchange: [40, 960] } }),
        skus: [E3],
      },
    ]);
    // While the recorded posts are live (most end in spring 2026).
    const ctx = await context({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '0' }, '2026-02-07T12:00:00Z');
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    const removed = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'], isRemoved: true, removedAt: ctx.clock.now() });
    const tenant = await createTenantsService(ctx.ctx).create({ name: 'Contoso', tenantId: A, clientId: CLIENT, clientSecret: 'secret-A' });
    runner = createTestJobRunner(ctx);
    await runner.start();
    await runner.agenda.now(TENANT_SYNC_JOB, { tenantId: tenant.id });
    // The sync's hook computes the new posts' rows first (before the usage is read); the roadmap item's row is the
    // tenant's refresh, which ends the job.
    let rows = await rowsOf(ctx, tenant.id);
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && !rows[teams.id]; rows = await rowsOf(ctx, tenant.id))
      await new Promise((r) => setTimeout(r, 100));

    expect(rows[teams.id]).toEqual({ level: 3, workload: 'teams', reason: '950 people used Teams in the last 30 days, 95 % of licensed users' });
    // A removed item keeps its relevance: the archive and the triage views still list it.
    expect(rows[removed.id]).toEqual(rows[teams.id]);
    const [post] = await ctx.database.db.select({ id: items.id }).from(items).where(eq(items.externalId, 'MC900009'));
    expect(rows[post!.id]).toEqual({ level: 1, workload: 'exchange', reason: '40 people used Exchange Online in the last 30 days, 4 % of licensed users' });
    // The two roadmap items and the ten posts the tenant listed (MC900008, which ended on 3 February, too).
    expect(Object.keys(rows)).toHaveLength(12);
  });

  it('follows the thresholds of the configuration', async () => {
    const ctx = await context({ RELEVANCE_HIGH_USERS: '2000', RELEVANCE_HIGH_SHARE: '0.99', RELEVANCE_MEDIUM_SHARE: '0.01' });
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    const exchange = await insertRoadmapItem(ctx.database.db, { products: ['Exchange Online'] });
    await storeUsage(ctx, tenant.id);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    const rows = await rowsOf(ctx, tenant.id);
    // 95 % is under 99 % and 950 people under 2,000: Medium; 4 % of Exchange's users is over 1 %: Medium too.
    expect([rows[teams.id]?.level, rows[exchange.id]?.level]).toEqual([2, 2]);
  });

  it('rates an item the tenant does not license Low, whatever its usage', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    await ctx.database.db
      .update(tenants)
      .set({ licensedProducts: ['Microsoft Teams'] })
      .where(eq(tenants.id, tenant.id));
    const copilot = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Copilot (Microsoft 365)'] });
    await storeUsage(ctx, tenant.id);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    expect((await rowsOf(ctx, tenant.id))[copilot.id]).toMatchObject({ level: 1, reason: expect.stringMatching(/^Not licensed: /) });
  });

  it('keeps a post’s relevance for the tenants that received it only', async () => {
    const ctx = await context();
    const contoso = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const fabrikam = await insertTenant(ctx.database.db, { name: 'Fabrikam', visibility: 'private' });
    const post = await insertMessage(ctx.database.db, { products: ['Microsoft Teams'] });
    await receivedBy(ctx.database.db, post.id, [fabrikam.id]);
    await ctx.ctx.services.relevance.refreshTenant(contoso.id);
    await ctx.ctx.services.relevance.refreshTenant(fabrikam.id);
    expect((await rowsOf(ctx, contoso.id))[post.id]).toBeUndefined();
    expect((await rowsOf(ctx, fabrikam.id))[post.id]).toEqual({ level: 0, workload: null, reason: 'Usage not read yet' });
  });
});

describe('refreshing', () => {
  it('writes only the rows that changed, and a refresh that changes nothing leaves the data version alone', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    await insertRoadmapItem(ctx.database.db, { products: ['Exchange Online'] });
    await storeUsage(ctx, tenant.id);
    const relevance = ctx.ctx.services.relevance;
    expect(await relevance.refreshTenant(tenant.id)).toEqual({ rows: 2, written: 2, removed: 0 });
    const version = (await readDataVersion(ctx.database.pool)).version;
    expect(await relevance.refreshTenant(tenant.id)).toEqual({ rows: 2, written: 0, removed: 0 });
    expect((await readDataVersion(ctx.database.pool)).version).toBe(version);

    ctx.clock.advance(24 * 3_600_000);
    await storeUsage(ctx, tenant.id, 400);
    expect(await relevance.refreshTenant(tenant.id)).toEqual({ rows: 2, written: 1, removed: 0 });
    expect((await rowsOf(ctx, tenant.id))[teams.id]).toMatchObject({ level: 2, reason: '400 people used Teams in the last 30 days, 40 % of licensed users' });
    expect((await readDataVersion(ctx.database.pool)).version).toBeGreaterThan(version);
  });

  it('moves the list on: an answer cached before a refresh is not served after it', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    await storeUsage(ctx, tenant.id);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    const { agent } = await signIn(ctx.app, ctx.database.db);
    const highOnes = async () => ((await agent.get('/api/unified/items?relevance=high')).body as { items: { id: string }[] }).items.map((i) => i.id);
    expect(await highOnes()).toEqual([`roadmap-${teams.externalId}`]);
    expect(await highOnes()).toEqual([`roadmap-${teams.externalId}`]);
    // The count alone changes (nothing else the list reads): only the relevance rows move the data version.
    await ctx.database.pool.query(`UPDATE tenant_usage SET active_users = 20 WHERE tenant_id = $1 AND workload = 'teams'`, [tenant.id]);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    expect(await highOnes()).toEqual([]);
  });

  it('keeps the rows of removed items, and deletes every row of a removed tenant', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const kept = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    const gone = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    const relevance = ctx.ctx.services.relevance;
    await relevance.refreshTenant(tenant.id);
    await ctx.database.db.update(items).set({ isRemoved: true, removedAt: ctx.clock.now() }).where(eq(items.id, gone.id));
    expect(await relevance.refreshTenant(tenant.id)).toEqual({ rows: 2, written: 0, removed: 0 });
    expect(Object.keys(await rowsOf(ctx, tenant.id)).sort()).toEqual([String(kept.id), String(gone.id)].sort());

    await ctx.database.db.update(tenants).set({ removedAt: ctx.clock.now() }).where(eq(tenants.id, tenant.id));
    expect(await relevance.refreshTenant(tenant.id)).toEqual({ rows: 0, written: 0, removed: 2 });
  });

  it('rates a post removed from the feed like a live one, so the archive can filter it by relevance', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    await storeUsage(ctx, tenant.id);
    const ended = await insertMessage(ctx.database.db, { products: ['Microsoft Teams'], isRemoved: true, removedAt: ctx.clock.now() });
    await receivedBy(ctx.database.db, ended.id, [tenant.id]);
    await ctx.ctx.services.relevance.refreshItems([ended.id]);
    expect((await rowsOf(ctx, tenant.id))[ended.id]).toMatchObject({ level: 3, workload: 'teams' });
    const { agent } = await signIn(ctx.app, ctx.database.db);
    const archive = await agent.get('/api/unified/items?includeRemoved=true&relevance=high');
    expect((archive.body as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([`messages-${ended.externalId}`]);
    expect((archive.body as { relevance: Record<string, { level: string }> }).relevance).toEqual({
      [`messages-${ended.externalId}`]: expect.objectContaining({ level: 'high' }),
    });
  });

  it('drops a disabled tenant’s rows, so its relevance neither shows nor filters, and works them out again when it is enabled', async () => {
    const ctx = await context();
    const { agent: admin } = await signIn(ctx.app, ctx.database.db, { roles: ['Admin'] });
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    await storeUsage(ctx, tenant.id);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    const list = async (query: string) =>
      (await admin.get(`/api/unified/items?${query}`)).body as { items: { id: string }[]; relevance?: Record<string, unknown> };
    expect((await list('relevance=high')).items.map((i) => i.id)).toEqual([`roadmap-${teams.externalId}`]);

    expect((await admin.patch(`/api/admin/tenants/${tenant.id}`).send({ enabled: false })).status).toBe(200);
    expect(await rowsOf(ctx, tenant.id)).toEqual({});
    expect((await list('relevance=high')).items).toEqual([]);
    expect((await list('')).relevance ?? {}).toEqual({});
    expect((await admin.get(`/api/relevance/roadmap/${teams.externalId}`)).body).toMatchObject({ tenants: [] });
    // The job's refresh of a disabled tenant (or a changed item's) writes nothing back.
    expect(await ctx.ctx.services.relevance.refreshItems([teams.id])).toEqual({ rows: 0, written: 0, removed: 0 });

    expect((await admin.patch(`/api/admin/tenants/${tenant.id}`).send({ enabled: true })).status).toBe(200);
    expect((await rowsOf(ctx, tenant.id))[teams.id]).toMatchObject({ level: 3 });
    expect((await list('relevance=high')).items.map((i) => i.id)).toEqual([`roadmap-${teams.externalId}`]);
  });

  it('leaves out a disabled tenant’s rows however they came to be there', async () => {
    const ctx = await context();
    const tenant = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const teams = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    await storeUsage(ctx, tenant.id);
    await ctx.ctx.services.relevance.refreshTenant(tenant.id);
    // Disabled behind the service's back (an older version kept the rows): the list and the dialog read none of them.
    await ctx.database.db.update(tenants).set({ enabled: false }).where(eq(tenants.id, tenant.id));
    const { agent } = await signIn(ctx.app, ctx.database.db, { roles: ['Admin'] });
    expect((await agent.get('/api/unified/items?relevance=high')).body.items).toEqual([]);
    expect((await agent.get('/api/unified/items?sortField=relevance')).body.relevance ?? {}).toEqual({});
    expect((await agent.get(`/api/relevance/roadmap/${teams.externalId}`)).body).toMatchObject({ tenants: [] });
  });

  it('refreshItems computes the items’ rows for every tenant and leaves the other items’ rows alone', async () => {
    const ctx = await context();
    const contoso = await insertTenant(ctx.database.db, { name: 'Contoso', visibility: 'public' });
    const fabrikam = await insertTenant(ctx.database.db, { name: 'Fabrikam', visibility: 'private' });
    const other = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    await storeUsage(ctx, contoso.id);
    const item = await insertRoadmapItem(ctx.database.db, { products: ['Microsoft Teams'] });
    expect(await ctx.ctx.services.relevance.refreshItems([item.id])).toEqual({ rows: 2, written: 2, removed: 0 });
    expect((await rowsOf(ctx, contoso.id))[item.id]?.level).toBe(3);
    expect((await rowsOf(ctx, fabrikam.id))[item.id]?.level).toBe(0);
    expect((await rowsOf(ctx, contoso.id))[other.id]).toBeUndefined();
  });
});
