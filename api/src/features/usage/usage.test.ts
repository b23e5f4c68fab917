import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertRoadmapItem, signIn } from '../../../test/factories.js';
import { createTestJobRunner } from '../../../test/jobs.js';
import { readFixture } from '../../../test/replay-server.js';
import { startTenantGraphServer, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { usageOf } from '../../../test/tenant-usage-reports.js';
import type { JobRunner } from '../../jobs/agenda.js';
import { TENANT_SYNC_JOB } from '../../jobs/tenant-sync.jobs.js';
import { createTenantsService } from '../tenants/tenants.service.js';
import { createUsageService } from './usage.service.js';

// Each test has its own database, local Graph and tenants.
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const WITHOUT_REPORTS = ['ServiceMessage.Read.All', 'ServiceHealth.Read.All', 'Organization.Read.All'];
const HOUR = 3_600_000;

let t: TestContext | undefined;
let graph: TenantGraphServer | undefined;
let runner: JobRunner | undefined;
afterEach(async () => {
  await runner?.stop();
  await graph?.close();
  await t?.close();
  runner = graph = t = undefined;
});

const contoso = usageOf({
  date: '2026-11-25',
  services: { exchange: [900, 100], oneDrive: [600, 400], sharePoint: [500, 500], teams: [950, 50], yammer: [20, 980] },
  apps: [
    { reportDate: '2026-11-24', outlook: 800, word: 300, excel: 250, powerPoint: 90, oneNote: 30 },
    { reportDate: '2026-11-25', outlook: 810, word: 320, excel: 260, powerPoint: 95, oneNote: 31 },
  ],
  // Over the 30 days, of 1,000 people: Outlook the first 850, Word the first 420, Excel 100 to 479, PowerPoint 130,
  // OneNote 40: 850 used one of them.
  appUsers: { users: 1000, apps: { outlook: 850, word: 420, excel: [100, 480], powerPoint: 130, oneNote: 40, teams: 900 } },
  copilot: { enabled: 50, active: 35 },
});

const fake = (directoryId: string, extra: Partial<FakeTenant> = {}): FakeTenant => ({
  directoryId,
  clientId: CLIENT,
  secret: `secret-${directoryId.slice(0, 4)}`,
  messages: [],
  issues: [],
  ...extra,
});

async function setUp(tenants: FakeTenant[]) {
  graph = await startTenantGraphServer(tenants);
  t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '2' }, { now: '2026-11-27T06:00:00Z' });
  const tenantsService = createTenantsService(t.ctx);
  const ids: number[] = [];
  for (const [i, tenant] of tenants.entries()) {
    const row = await tenantsService.create({ name: `Tenant ${i + 1}`, tenantId: tenant.directoryId, clientId: CLIENT, clientSecret: tenant.secret });
    ids.push(row.id);
  }
  const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
  return { graph, t, ids, admin, usage: createUsageService(t.ctx), tenantsService };
}

type UsageBody = {
  readAt: string | null;
  error: string | null;
  permissionMissing: boolean;
  workloads: { workload: string; activeUsers: number; licensedUsers: number | null; share: number | null; reportDate: string; periodDays: number }[];
  trend: { date: string; workload: string; activeUsers: number }[];
};
const usageOfTenant = async (admin: request.Agent, id: number) => {
  const res = await admin.get(`/api/admin/tenants/${id}/usage`);
  expect(res.status).toBe(200);
  return res.body as UsageBody;
};
const workload = (body: UsageBody, name: string) => body.workloads.find((w) => w.workload === name);

describe('reading a tenant’s usage reports', () => {
  it('reads a report’s CSV (byte order mark, header row) from the download Graph redirects to, without the token', async () => {
    const { graph, ids, admin, usage } = await setUp([fake(A, { usage: contoso })]);
    expect(await usage.read(ids[0]!)).toEqual({ read: true, stored: 24, error: null, permissionMissing: false });
    const body = await usageOfTenant(admin, ids[0]!);
    expect(workload(body, 'exchange')).toEqual({
      workload: 'exchange',
      label: 'Exchange Online',
      reportDate: '2026-11-25',
      periodDays: 30,
      activeUsers: 900,
      licensedUsers: 1000,
      share: 0.9,
    });
    // Copilot's summary is CSV too, answered directly.
    expect(workload(body, 'copilot')).toMatchObject({ activeUsers: 35, licensedUsers: 50, share: 0.7 });
    expect(body).toMatchObject({ readAt: '2026-11-27T06:00:00.000Z', error: null, permissionMissing: false });
    expect(graph.requests).toContain(`${A} GET /reports services`);
    expect(graph.requests).toContain('download GET /download (no token)');
    expect(graph.requests.some((r) => r.includes('with a token'))).toBe(false);
  });

  it('reads the apps’ 30-day users from the user detail, and keeps each day’s counts for the trend', async () => {
    const { graph, ids, admin, usage } = await setUp([fake(A, { usage: contoso })]);
    await usage.read(ids[0]!);
    const body = await usageOfTenant(admin, ids[0]!);
    // The newest count of an app is its 30 days' (what relevance reads), the trend its daily counts.
    expect(workload(body, 'word')).toMatchObject({ reportDate: '2026-11-25', periodDays: 30, activeUsers: 420, licensedUsers: null, share: null });
    expect(workload(body, 'excel')).toMatchObject({ periodDays: 30, activeUsers: 380 });
    expect(body.trend.filter((p) => p.workload === 'word')).toEqual([
      { date: '2026-11-24', workload: 'word', activeUsers: 300 },
      { date: '2026-11-25', workload: 'word', activeUsers: 320 },
    ]);
    // The Microsoft 365 apps: the people who used any of them in the 30 days, no longer the busiest app's day.
    expect(workload(body, 'm365apps')).toMatchObject({ reportDate: '2026-11-25', periodDays: 30, activeUsers: 850, licensedUsers: null, share: null });
    // The user detail is CSV from the download Graph redirects to, fetched without the token.
    expect(graph.requests).toContain(`${A} GET /reports appUsers`);
    expect(graph.requests.filter((r) => r.includes('/download')).length).toBe(2);
    expect(graph.requests.some((r) => r.includes('with a token'))).toBe(false);
    expect(body.workloads.map((w) => w.workload)).toEqual([
      'exchange',
      'onedrive',
      'sharepoint',
      'teams',
      'yammer',
      'm365apps',
      'copilot',
      'word',
      'excel',
      'powerpoint',
      'outlook',
      'onenote',
    ]);
  });

  it('counts a large tenant’s user detail as it arrives, concealed names and all', async () => {
    const large = usageOf({
      date: '2026-11-25',
      appUsers: { users: 20_000, apps: { outlook: 18_000, word: [5_000, 17_000], oneNote: [19_990, 20_000] }, concealed: true },
    });
    const { ids, admin, usage } = await setUp([fake(A, { usage: large })]);
    expect(await usage.read(ids[0]!)).toMatchObject({ read: true, stored: 6, error: null });
    const body = await usageOfTenant(admin, ids[0]!);
    expect(body.workloads.map((w) => [w.workload, w.activeUsers, w.periodDays])).toEqual([
      ['m365apps', 18_010, 30],
      ['word', 12_000, 30],
      ['excel', 0, 30],
      ['powerpoint', 0, 30],
      ['outlook', 18_000, 30],
      ['onenote', 10, 30],
    ]);
  }, 60_000);

  it('reads a relevance reason of an app from its 30 days', async () => {
    const { t, ids, usage } = await setUp([fake(A, { usage: contoso })]);
    const word = await insertRoadmapItem(t.database.db, { products: ['Word'] });
    await usage.read(ids[0]!);
    await t.ctx.services.relevance.refreshTenant(ids[0]!);
    const { rows } = await t.database.pool.query('SELECT level, reason FROM item_relevance WHERE item_id = $1', [word.id]);
    expect(rows).toEqual([{ level: 2, reason: '420 people used Word in the last 30 days' }]);
  });

  it('keeps each day’s counts as history', async () => {
    const { graph, t, ids, admin, usage } = await setUp([fake(A, { usage: contoso })]);
    await usage.read(ids[0]!);
    graph.tenants.get(A)!.usage = usageOf({ date: '2026-11-26', services: { exchange: [950, 50] } });
    t.clock.advance(24 * HOUR);
    await usage.read(ids[0]!);
    const body = await usageOfTenant(admin, ids[0]!);
    expect(body.trend.filter((p) => p.workload === 'exchange').map((p) => [p.date, p.activeUsers])).toEqual([
      ['2026-11-25', 900],
      ['2026-11-26', 950],
    ]);
    expect(workload(body, 'exchange')).toMatchObject({ reportDate: '2026-11-26', activeUsers: 950 });
    // A workload the newest read did not count keeps its newest count.
    expect(workload(body, 'teams')).toMatchObject({ reportDate: '2026-11-25', activeUsers: 950 });
  });

  it('replaces a day’s counts when the same report day is read again', async () => {
    const { graph, t, ids, admin, usage } = await setUp([fake(A, { usage: contoso })]);
    await usage.read(ids[0]!);
    graph.tenants.get(A)!.usage = usageOf({ date: '2026-11-25', services: { exchange: [905, 95] } });
    await usage.read(ids[0]!);
    const body = await usageOfTenant(admin, ids[0]!);
    expect(body.trend.filter((p) => p.workload === 'exchange')).toEqual([{ date: '2026-11-25', workload: 'exchange', activeUsers: 905 }]);
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM tenant_usage WHERE workload = 'exchange'`);
    expect(rows[0].n).toBe(1);
  });

  it('keeps 13 months of counts', async () => {
    const { t, ids, usage } = await setUp([fake(A, { usage: contoso })]);
    await t.database.pool.query(
      `INSERT INTO tenant_usage (tenant_id, report_date, workload, active_users, period_days, read_at)
       VALUES ($1, '2025-10-20', 'teams', 1, 30, now()), ($1, '2025-11-10', 'teams', 2, 30, now())`,
      [ids[0]],
    );
    await usage.read(ids[0]!);
    const { rows } = await t.database.pool.query(`SELECT report_date FROM tenant_usage WHERE workload = 'teams' ORDER BY report_date`);
    expect(rows.map((r) => r.report_date)).toEqual(['2025-11-10', '2026-11-25']);
  });

  it('says on the tenant’s record whether its usage is read, failing, or not read yet', async () => {
    const { graph, t, ids, admin, usage } = await setUp([fake(A, { usage: contoso })]);
    const record = async () => ((await admin.get('/api/admin/tenants')).body as { usage: unknown }[])[0]!.usage;
    expect(await record()).toEqual({ state: 'never', readAt: null, error: null });
    await usage.read(ids[0]!);
    expect(await record()).toEqual({ state: 'read', readAt: '2026-11-27T06:00:00.000Z', error: null });
    // Graph keeps refusing: the read fails, the counts read before stay in use, and the row says both.
    graph.tenants.get(A)!.throttle = { times: 99, retryAfterSeconds: 0, feeds: ['usage'] };
    t.clock.advance(24 * HOUR);
    expect(await usage.read(ids[0]!)).toMatchObject({ read: false, error: expect.stringMatching(/^Usage not read: /) });
    expect(await record()).toEqual({ state: 'failing', readAt: '2026-11-27T06:00:00.000Z', error: expect.stringMatching(/answered HTTP 429/) });
  });

  it('waits as Graph says when it throttles the usage reports, then reads them', async () => {
    const { graph, ids, admin, usage } = await setUp([fake(A, { usage: contoso, throttle: { times: 1, retryAfterSeconds: 1, feeds: ['usage'] } })]);
    expect((await usage.read(ids[0]!)).error).toBeNull();
    expect(graph.requests.filter((r) => r.includes('/reports services'))).toEqual([`${A} GET /reports services 429`, `${A} GET /reports services`]);
    expect(workload(await usageOfTenant(admin, ids[0]!), 'teams')).toMatchObject({ activeUsers: 950 });
  });

  it('reads each tenant with its own app: a tenant’s usage is never read as another’s', async () => {
    const fabrikam = usageOf({ date: '2026-11-25', services: { exchange: [10, 40] } });
    const { graph, ids, admin, usage } = await setUp([fake(A, { usage: contoso }), fake(B, { usage: fabrikam })]);
    await usage.read(ids[1]!);
    expect((await usageOfTenant(admin, ids[0]!)).workloads).toEqual([]);
    await usage.read(ids[0]!);
    expect(workload(await usageOfTenant(admin, ids[0]!), 'exchange')).toMatchObject({ activeUsers: 900, licensedUsers: 1000 });
    expect((await usageOfTenant(admin, ids[1]!)).workloads).toEqual([
      expect.objectContaining({ workload: 'exchange', activeUsers: 10, licensedUsers: 50, share: 0.2 }),
    ]);
    expect(graph.requests.filter((r) => r.includes('GET /reports services'))).toEqual([`${B} GET /reports services`, `${A} GET /reports services`]);
  });

  it('reads once a day, and a failed read again after an hour', async () => {
    const { graph, t, ids, usage } = await setUp([fake(A, { usage: contoso, roles: WITHOUT_REPORTS })]);
    const id = ids[0]!;
    expect(await usage.readIfDue(id)).toMatchObject({ read: false, permissionMissing: true });
    t.clock.advance(HOUR - 60_000);
    expect(await usage.readIfDue(id)).toBeNull();
    graph.tenants.get(A)!.roles = [...WITHOUT_REPORTS, 'Reports.Read.All'];
    t.clock.advance(60_000);
    expect(await usage.readIfDue(id)).toMatchObject({ read: true, error: null, permissionMissing: false });
    t.clock.advance(19 * HOUR);
    expect(await usage.readIfDue(id)).toBeNull();
    t.clock.advance(HOUR);
    expect(await usage.readIfDue(id)).toMatchObject({ read: true });
  });
});

/** A live Teams post (Graph's serviceUpdateMessage) in the stand-in's Message Center. */
const teamsPost = {
  id: 'MC990001',
  title: 'Teams meetings get a new lobby',
  category: 'planForChange',
  severity: 'normal',
  tags: ['User impact'],
  isMajorChange: false,
  actionRequiredByDateTime: null,
  services: ['Microsoft Teams'],
  startDateTime: '2026-11-20T00:00:00Z',
  endDateTime: '2027-02-01T00:00:00Z',
  lastModifiedDateTime: '2026-11-20T00:00:00Z',
  details: [],
  body: { contentType: 'html', content: '<p>The lobby changes.</p>' },
  hasAttachments: false,
  viewPoint: null,
};

const TEAMS = { skuPartNumber: 'SPE_E3', capabilityStatus: 'Enabled', servicePlans: [{ servicePlanName: 'TEAMS1', provisioningStatus: 'Success' }] };

describe("an admin's Sync now", () => {
  it('reads the usage at once, though it was read today, and computes the posts’ relevance from it', async () => {
    const { graph, t, ids, admin, usage } = await setUp([fake(A, { usage: contoso, messages: [teamsPost], skus: [TEAMS] })]);
    const id = ids[0]!;
    expect(await usage.readIfDue(id)).toMatchObject({ read: true });
    const before = graph.requests.filter((r) => r.includes('GET /reports services')).length;
    const synced = await admin.post(`/api/admin/tenants/${id}/sync`);
    expect(synced.status).toBe(200);
    expect(graph.requests.filter((r) => r.includes('GET /reports services')).length).toBe(before + 1);
    const { rows } = await t.database.pool.query('SELECT level, reason FROM item_relevance WHERE tenant_id = $1', [id]);
    // Teams: 950 of 1,000 licensed users active in the stand-in's report.
    expect(rows).toEqual([{ level: 3, reason: expect.stringMatching(/^950 people used Teams/) }]);
  });
});

describe('without Reports.Read.All', () => {
  it('the usage is off and says why, and the tenant’s other feeds still sync', async () => {
    const messages = JSON.parse(readFixture('messages-a.json')) as unknown[];
    const { graph, t, ids, admin } = await setUp([fake(A, { usage: contoso, roles: WITHOUT_REPORTS, messages })]);
    runner = createTestJobRunner(t);
    await runner.start();
    await runner.agenda.now(TENANT_SYNC_JOB, { tenantId: ids[0] });
    const deadline = Date.now() + 25_000;
    let tried = false;
    while (Date.now() < deadline && !tried) {
      const { rows } = await t.database.pool.query(`SELECT usage_tried_at FROM tenants WHERE id = $1`, [ids[0]]);
      tried = rows[0]?.usage_tried_at !== null;
      if (!tried) await new Promise((r) => setTimeout(r, 100));
    }
    const body = await usageOfTenant(admin, ids[0]!);
    expect(body).toEqual({
      readAt: null,
      error: expect.stringMatching(/^Usage not readable: grant the app Reports\.Read\.All/),
      permissionMissing: true,
      workloads: [],
      trend: [],
    });
    // Every report needs the permission: the first refusal is enough. (Under load Agenda's short test lock can let
    // the job run twice; each try still stops at the first report.)
    expect([...new Set(graph.requests.filter((r) => r.includes('/reports')))]).toEqual([`${A} GET /reports services`]);
    // Both feeds synced (a second run of the job, under load, may still be running: it is not a failure).
    const { rows } = await t.database.pool.query(
      `SELECT DISTINCT source, status FROM sync_history WHERE tenant_id = $1 AND status <> 'running' ORDER BY source`,
      [ids[0]],
    );
    expect(rows).toEqual([
      { source: 'message_center', status: 'success' },
      { source: 'service_health', status: 'success' },
    ]);
    expect((await admin.get('/api/admin/tenants')).body[0]).toMatchObject({
      licencesError: null,
      licences: expect.objectContaining({ products: [] }),
      usage: { state: 'permission_missing', readAt: null, error: expect.stringMatching(/^Usage not readable: grant the app Reports\.Read\.All/) },
    });
  });

  it('the connection test names the permission, as optional', async () => {
    const { ids, admin } = await setUp([fake(A, { roles: WITHOUT_REPORTS })]);
    const res = await admin.post(`/api/admin/tenants/${ids[0]}/test`);
    expect(res.body).toMatchObject({ ok: true, message: 'Connected; optional usage failed' });
    expect(res.body.checks[4]).toEqual({
      name: 'usage',
      ok: false,
      message: 'Missing Reports.Read.All (optional: only relevance needs it): add it to the app as an application permission and grant admin consent.',
    });
  });
});

describe('GET /api/admin/tenants/{id}/usage', () => {
  it('answers admins only', async () => {
    const { t, ids, admin } = await setUp([fake(A, { usage: contoso })]);
    const path = `/api/admin/tenants/${ids[0]}/usage`;
    const { agent: moderator } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const { agent: user } = await signIn(t.app, t.database.db, { roles: ['User'] });
    expect((await moderator.get(path)).status).toBe(403);
    expect((await user.get(path)).status).toBe(403);
    expect((await request(t.app).get(path)).status).toBe(401);
    expect((await admin.get(path)).body).toEqual({ readAt: null, error: null, permissionMissing: false, workloads: [], trend: [] });
    expect((await admin.get('/api/admin/tenants/999/usage')).status).toBe(404);
  });
});
