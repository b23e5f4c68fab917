import { afterEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { exchangeIncident, exchangeReport, sharePointIncident, teamsAdvisory } from '../../../test/service-health-fixtures.js';
import { startTenantGraphServer, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { startWebhookReceiver } from '../../../test/webhook-receiver.js';

// Each test sets up its own database, local Graph and tenants.
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let t: TestContext | undefined;
const servers: TenantGraphServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await t?.close();
  t = undefined;
});

const fake = (directoryId: string, issues: unknown[], extra: Partial<FakeTenant> = {}): FakeTenant => ({
  directoryId,
  clientId: CLIENT,
  secret: `secret-${directoryId.slice(0, 4)}`,
  messages: [],
  issues,
  ...extra,
});

async function setUp(tenants: FakeTenant[], options: { pageSize?: number; now?: string; env?: Record<string, string> } = {}) {
  const graph = await startTenantGraphServer(tenants, options);
  servers.push(graph);
  t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '2', ...options.env }, { now: options.now });
  const { agent } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
  return { graph, t, admin: agent };
}

async function addTenant(admin: request.Agent, name: string, directoryId: string, extra: Record<string, unknown> = {}) {
  const res = await admin
    .post('/api/admin/tenants')
    .send({ name, tenantId: directoryId, clientId: CLIENT, clientSecret: `secret-${directoryId.slice(0, 4)}`, ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string };
}

describe('Service Health sync', () => {
  it('keeps every post of an incident as it gets five updates, its status timeline and its post-incident report', async () => {
    const contoso = fake(A, [exchangeIncident(1)]);
    const { admin, graph, t } = await setUp([contoso]);
    const tenant = await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    for (let posts = 1; posts <= 5; posts++) {
      contoso.issues = [exchangeIncident(posts)];
      if (posts === 5) contoso.reports = { EX1000001: exchangeReport };
      const res = await admin.post('/api/admin/sync-service-health');
      expect(res.status).toBe(200);
      expect(res.body.sync).toMatchObject({ syncSource: 'service_health', status: 'success', tenant: { id: tenant.id, name: 'Contoso' } });
    }
    const issue = await request(t.app).get('/api/service-health/issues/EX1000001');
    expect(issue.status).toBe(200);
    expect(issue.body).toMatchObject({
      id: 'health-EX1000001',
      source: 'health',
      issueId: 'EX1000001',
      messageId: null,
      classification: 'incident',
      status: 'postIncidentReviewPublished',
      statusLabel: 'Post-incident report published',
      isResolved: true,
      service: ['Exchange Online'],
      feature: 'E-Mail and calendar access',
      origin: 'microsoft',
      tenants: [{ id: tenant.id, name: 'Contoso', expired: false }],
    });
    expect(issue.body.posts.map((p: { postedAt: string }) => p.postedAt)).toEqual([
      '2026-11-02T08:05:00.000Z',
      '2026-11-02T09:10:00.000Z',
      '2026-11-02T11:30:00.000Z',
      '2026-11-02T14:45:00.000Z',
      '2026-11-06T16:00:00.000Z',
    ]);
    expect(issue.body.statusTimeline.map((s: { status: string }) => s.status)).toEqual([
      'investigating',
      'serviceDegradation',
      'restoringService',
      'serviceRestored',
      'postIncidentReviewPublished',
    ]);
    expect(issue.body.report).toMatchObject({
      downloadUrl: '/api/service-health/issues/EX1000001/report',
      contentType: 'application/pdf',
      size: exchangeReport.body.length,
    });
    const report = await request(t.app).get('/api/service-health/issues/EX1000001/report');
    expect(report.status).toBe(200);
    expect(report.headers['content-disposition']).toMatch(/^attachment; filename="EX1000001-post-incident-report\.pdf"/);
    expect(Buffer.from(report.body as Buffer).equals(exchangeReport.body)).toBe(true);
    // The report is read once: the next sync does not ask for it again.
    const asked = graph.requests.filter((r) => r.includes('/incidentReport')).length;
    await admin.post('/api/admin/sync-service-health');
    expect(graph.requests.filter((r) => r.includes('/incidentReport')).length).toBe(asked);

    const history = await request(t.app).get('/api/service-health/issues/EX1000001/history');
    expect(history.body.map((h: { changeType: string }) => h.changeType)).toEqual(['changed', 'changed', 'changed', 'changed', 'new']);
    expect(history.body[0].changedFields).toEqual(expect.arrayContaining(['healthStatus', 'postCount', 'latestPost']));
  });

  it('keeps an issue and its posts for good when Microsoft stops listing it, and never holds a snapshot', async () => {
    const contoso = fake(A, [exchangeIncident(4), teamsAdvisory, sharePointIncident]);
    const { admin, t } = await setUp([contoso], { pageSize: 2 });
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    expect((await admin.post('/api/admin/sync-service-health')).body.sync).toMatchObject({ status: 'success', newItems: 3, itemsProcessed: 3 });
    // Thirty days on, Graph lists nothing: the issues stay live and whole.
    contoso.issues = [];
    const quiet = await admin.post('/api/admin/sync-service-health');
    expect(quiet.body.sync).toMatchObject({ status: 'success', removedItems: 0 });
    const list = await request(t.app).get('/api/unified/items?sources=health&sortField=createdDate');
    expect(list.body.total).toBe(3);
    const issue = await request(t.app).get('/api/service-health/issues/EX1000001');
    expect(issue.body.posts).toHaveLength(4);
    expect(issue.body.isRemoved).toBe(false);
    expect(issue.body.tenants).toEqual([expect.objectContaining({ name: 'Contoso', expired: true })]);
  });

  it('keeps a post Microsoft trimmed from an issue it still lists', async () => {
    const contoso = fake(A, [exchangeIncident(3)]);
    const { admin, t } = await setUp([contoso]);
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await admin.post('/api/admin/sync-service-health');
    const trimmed = exchangeIncident(4);
    trimmed.posts = (trimmed.posts as unknown[]).slice(2);
    contoso.issues = [trimmed];
    await admin.post('/api/admin/sync-service-health');
    const issue = await request(t.app).get('/api/service-health/issues/EX1000001');
    expect(issue.body.posts).toHaveLength(4);
  });

  it('one tenant without ServiceHealth.Read.All fails alone; an issue two tenants see is one item with both', async () => {
    const { admin, t } = await setUp([
      fake(A, [exchangeIncident(2), teamsAdvisory], {
        overviews: [
          { service: 'Exchange Online', status: 'serviceDegradation', id: 'Exchange' },
          { service: 'Microsoft Teams', status: 'serviceOperational', id: 'microsoftteams' },
        ],
      }),
      fake(B, [exchangeIncident(2)], { roles: ['ServiceMessage.Read.All'] }),
      fake('33333333-3333-4333-8333-333333333333', [exchangeIncident(2)]),
    ]);
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await addTenant(admin, 'Fabrikam', B);
    await addTenant(admin, 'Tailspin', '33333333-3333-4333-8333-333333333333');
    const res = await admin.post('/api/admin/sync-service-health');
    expect(res.status).toBe(200);
    const byTenant = Object.fromEntries(
      (res.body.runs as { tenant: { name: string }; status: string; errorMessage: string | null }[]).map((r) => [r.tenant.name, r]),
    );
    expect(byTenant.Contoso!.status).toBe('success');
    expect(byTenant.Tailspin!.status).toBe('success');
    expect(byTenant.Fabrikam!.status).toBe('failed');
    expect(byTenant.Fabrikam!.errorMessage).toMatch(/403/);
    const issue = await admin.get('/api/service-health/issues/EX1000001');
    expect(issue.body.tenants.map((x: { name: string }) => x.name)).toEqual(['Contoso', 'Tailspin']);
    // The list says which tenants received each item, of those the caller may see: a guest only the public Contoso.
    const ids = Object.fromEntries(((await admin.get('/api/admin/tenants')).body as { id: number; name: string }[]).map((x) => [x.name, x.id]));
    expect((await admin.get('/api/unified/items?sources=health')).body.receivedBy).toEqual({
      'health-EX1000001': [ids.Contoso, ids.Tailspin],
      'health-TM1000002': [ids.Contoso],
    });
    const guest = await request(t.app).get('/api/unified/items?sources=health');
    expect(guest.body.receivedBy).toEqual({ 'health-EX1000001': [ids.Contoso], 'health-TM1000002': [ids.Contoso] });
    const searched = await request(t.app).get('/api/unified/items?search=outlook');
    expect(searched.body.receivedBy).toEqual({ 'health-EX1000001': [ids.Contoso] });
    const tenants = (await admin.get('/api/admin/tenants')).body as {
      name: string;
      counts: { issues: number };
      feeds: { health: { status: string | null; error: string | null } };
    }[];
    const row = (name: string) => tenants.find((x) => x.name === name)!;
    expect(row('Contoso').counts.issues).toBe(2);
    expect(row('Fabrikam').feeds.health).toMatchObject({ status: 'failed', error: expect.stringMatching(/403/) });
    expect(row('Tailspin').feeds.health.status).toBe('success');
    // Each service's health now, read with the run: Contoso's Exchange is degraded; Fabrikam's could not be read.
    const now = (name: string) => (tenants.find((x) => x.name === name) as unknown as { serviceHealth: unknown }).serviceHealth;
    expect(now('Contoso')).toMatchObject({ services: 2, notOperational: [{ service: 'Exchange Online', status: 'serviceDegradation' }] });
    expect(now('Fabrikam')).toBeNull();
  });
});

describe('Service Health in the product', () => {
  it('is the third source of the list, with its status, classification, service and tenant filters', async () => {
    const { admin, t } = await setUp([fake(A, [exchangeIncident(4), teamsAdvisory, sharePointIncident])]);
    const tenant = await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await admin.post('/api/admin/sync-service-health');
    const ids = async (query: string) => ((await request(t.app).get(`/api/unified/items?${query}`)).body.items as { id: string }[]).map((i) => i.id).sort();
    expect(await ids('sources=health')).toEqual(['health-EX1000001', 'health-SP1000003', 'health-TM1000002']);
    expect(await ids('sources=health&healthStatus=active')).toEqual(['health-TM1000002']);
    expect(await ids('healthStatus=resolved')).toEqual(['health-EX1000001', 'health-SP1000003']);
    expect(await ids('healthClassifications=advisory')).toEqual(['health-TM1000002']);
    // Two of the three sources: the third is left out.
    expect(await ids('sources=messages&sources=health&healthStatus=active')).toEqual(['health-TM1000002']);
    await insertRoadmapItem(t.database.db, { externalId: '499777' });
    expect((await ids('sources=messages,health')).some((id) => id.startsWith('roadmap-'))).toBe(false);
    expect(await ids('products=Exchange%20Online&sources=health')).toEqual(['health-EX1000001']);
    expect(await ids(`tenants=${tenant.id}`)).toEqual(['health-EX1000001', 'health-SP1000003', 'health-TM1000002']);
    expect(await ids('search=routing%20change')).toEqual(['health-EX1000001']);
    expect(await ids('search=EX1000001')).toEqual(['health-EX1000001']);
    const bad = await request(t.app).get('/api/unified/items?healthClassifications=outage');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/healthClassifications/);
    const badStatus = await request(t.app).get('/api/unified/items?healthStatus=open');
    expect(badStatus.status).toBe(400);
    expect(JSON.stringify(badStatus.body)).toMatch(/healthStatus/);

    const csv = await request(t.app).get('/api/dashboard/export?sources=health');
    expect(csv.status).toBe(200);
    expect(csv.text).toMatch(
      /EX1000001,Service Health,Users may be unable to access email via Outlook on the web,Post-incident report published|EX1000001,Service Health,Users may be unable to access email via Outlook on the web,Service restored/,
    );
    expect(csv.text).toContain('https://admin.microsoft.com/Adminportal/Home#/servicehealth/:/alerts/EX1000001');

    const feed = await request(t.app).get('/api/feeds/items.rss?sources=health');
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('/health/EX1000001');
  });

  it('relates an incident to Message Center posts of the same service and weeks', async () => {
    const { admin, t } = await setUp([fake(A, [exchangeIncident(4)])]);
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await admin.post('/api/admin/sync-service-health');
    await insertMessage(t.database.db, { externalId: 'MC2000001', products: ['Exchange Online'], createdDate: new Date('2026-10-25T00:00:00Z') });
    await insertMessage(t.database.db, { externalId: 'MC2000002', products: ['Exchange Online'], createdDate: new Date('2026-06-01T00:00:00Z') });
    await insertMessage(t.database.db, { externalId: 'MC2000003', products: ['Microsoft Teams'], createdDate: new Date('2026-11-01T00:00:00Z') });
    // The roadmap says "Exchange" where Service Health says "Exchange Online"; its release month is its weeks.
    await insertRoadmapItem(t.database.db, {
      externalId: '499001',
      products: ['Exchange'],
      createdDate: new Date('2026-03-01T00:00:00Z'),
      modifiedDate: new Date('2026-03-01T00:00:00Z'),
      timingStart: '2026-11-01',
      timingEnd: '2026-11-30',
    });
    await insertRoadmapItem(t.database.db, { externalId: '499002', products: ['Exchange'], timingStart: '2027-03-01', timingEnd: '2027-03-31' });
    const issue = await request(t.app).get('/api/service-health/issues/EX1000001');
    expect(issue.body.related.map((r: { id: string }) => r.id).sort()).toEqual(['messages-MC2000001', 'roadmap-499001']);
    const post = await request(t.app).get('/api/message-center/items/MC2000001');
    expect(post.body.relatedIssues.map((r: { id: string }) => r.id)).toEqual(['health-EX1000001']);
    const roadmap = await request(t.app).get('/api/roadmap/items/499001/related-issues');
    expect(roadmap.body.map((r: { id: string }) => r.id)).toEqual(['health-EX1000001']);
    expect((await request(t.app).get('/api/roadmap/items/499002/related-issues')).body).toEqual([]);
  });

  it('hides the issues of a private tenant from everyone not given it: list, item, report, history', async () => {
    const contoso = fake(A, [exchangeIncident(5)], { reports: { EX1000001: exchangeReport } });
    const { admin, t } = await setUp([contoso]);
    const tenant = await addTenant(admin, 'Contoso', A);
    await admin.post('/api/admin/sync-service-health');
    const { agent: user, user: row } = await signIn(t.app, t.database.db, { roles: ['User'] });
    for (const agent of [request(t.app), user]) {
      expect((await agent.get('/api/unified/items?sources=health')).body.total).toBe(0);
      expect((await agent.get('/api/service-health/issues/EX1000001')).status).toBe(404);
      expect((await agent.get('/api/service-health/issues/EX1000001/report')).status).toBe(404);
      expect((await agent.get('/api/service-health/issues/EX1000001/history')).status).toBe(404);
    }
    expect((await admin.put(`/api/admin/app-users/${row.id}/tenants`).send({ tenantIds: [tenant.id] })).status).toBe(200);
    expect((await user.get('/api/unified/items?sources=health')).body.total).toBe(1);
    // A feed read with the session (or a token) carries the reader's tenants; a guest's does not.
    const feed = await user.get('/api/feeds/items.rss?sources=health');
    expect(feed.text).toContain('/health/EX1000001');
    expect(feed.headers['cache-control']).toBe('private, no-cache');
    expect(feed.text).not.toMatch(/tenantScope/);
    const guestFeed = await request(t.app).get('/api/feeds/items.rss?sources=health');
    expect(guestFeed.text).not.toContain('/health/EX1000001');
    expect(guestFeed.headers['cache-control']).toBe('public, no-cache');
    expect((await user.get('/api/service-health/issues/EX1000001')).status).toBe(200);
    expect((await request(t.app).get('/api/service-health/issues/ex1')).status).toBe(404);
    const bad = await request(t.app).get('/api/service-health/issues/not-an-id');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/issueId/);
  });

  it('is searched and read by the MCP tools, within the tenants of the token', async () => {
    const { admin, t } = await setUp([fake(A, [exchangeIncident(4), teamsAdvisory]), fake(B, [sharePointIncident])]);
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await addTenant(admin, 'Fabrikam', B);
    await admin.post('/api/admin/sync-service-health');
    const { agent: user } = await signIn(t.app, t.database.db, { roles: ['User'] });
    const created = await user.post('/api/tokens').set('Sec-Fetch-Site', 'same-origin').send({ name: 'agent' });
    expect(created.status).toBe(201);
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const client = new Client({ name: 'radar-test', version: '1.0.0' });
    try {
      const url = new URL('/api/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${created.body.token}` } } }));
      const found = (await client.callTool({ name: 'search_items', arguments: { sources: ['health'], healthStatus: 'resolved' } })) as unknown as {
        structuredContent: { items: { id: string; status: string; url: string }[] };
      };
      // Fabrikam is private: its SharePoint incident is not the token's to see.
      expect(found.structuredContent.items).toEqual([
        expect.objectContaining({ id: 'EX1000001', status: 'Service restored', url: expect.stringMatching(/\/health\/EX1000001$/) }),
      ]);
      const item = (await client.callTool({ name: 'get_item', arguments: { id: 'health-EX1000001' } })) as unknown as {
        structuredContent: { item: { posts: { text: string }[] }; history: unknown[] };
      };
      expect(item.structuredContent.item.posts).toHaveLength(4);
      expect(item.structuredContent.item.posts[1]!.text).toMatch(/mailbox routing/);
      const hidden = (await client.callTool({ name: 'get_item', arguments: { id: 'SP1000003' } })) as { isError?: boolean; content: { text: string }[] };
      expect(hidden.isError).toBe(true);
      expect(hidden.content[0]!.text).toMatch(/No Service Health issue with id SP1000003/);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('lists the incidents of the week in the weekly digest, of public tenants only', async () => {
    const privateIssue = { ...teamsAdvisory, id: 'TM1000009', classification: 'incident', title: 'A private incident' };
    const { admin, t } = await setUp([fake(A, [exchangeIncident(4), teamsAdvisory, sharePointIncident]), fake(B, [privateIssue])], {
      now: '2026-11-08T12:00:00Z',
    });
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    await addTenant(admin, 'Fabrikam', B);
    await admin.post('/api/admin/sync-service-health');
    const digest = await request(t.app).get('/api/weekly-digest');
    expect(digest.status).toBe(200);
    // The Teams advisory is no incident; SharePoint's was in October; Fabrikam is private.
    expect(digest.body.serviceHealth.incidents.map((i: { id: string }) => i.id)).toEqual(['health-EX1000001']);
  });

  it('alerts a saved search "new incidents of Exchange Online in tenant Contoso" to Teams', async () => {
    const teams = await startWebhookReceiver();
    const contoso = fake(A, [teamsAdvisory]);
    const { admin, t } = await setUp([contoso, fake(B, [sharePointIncident])], { env: { ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    try {
      const tenant = await addTenant(admin, 'Contoso', A, { visibility: 'public' });
      await addTenant(admin, 'Fabrikam', B);
      const channel = await admin.post('/api/alert-channels').send({ kind: 'teams', name: 'IT Teams', url: `${teams.url}/workflows/abc` });
      expect(channel.status).toBe(201);
      const saved = await admin.post('/api/saved-searches').send({
        name: 'Exchange incidents at Contoso',
        query: { sources: ['health'], products: ['Exchange Online'], tenants: [tenant.id], healthClassifications: ['incident'] },
        alertOn: ['new'],
        channelIds: [channel.body.id],
      });
      expect(saved.status).toBe(201);
      await admin.post('/api/admin/sync-service-health');
      // The Teams advisory and Fabrikam's SharePoint incident match nothing.
      expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 0, retrying: 0, failed: 0 });
      contoso.issues = [teamsAdvisory, exchangeIncident(1)];
      await admin.post('/api/admin/sync-service-health');
      expect(await t.ctx.services.alerts.deliverNow()).toEqual({ sent: 1, retrying: 0, failed: 0 });
      const card = teams.requests[0]!.body;
      expect(card).toContain('Users may be unable to access email via Outlook on the web');
      expect(card).toContain('New Service Health issue');
      expect(card).toContain('/health/EX1000001');
      expect(card).not.toContain('TM1000002');
    } finally {
      t.ctx.services.mail.close();
      await teams.close();
    }
  });
});
