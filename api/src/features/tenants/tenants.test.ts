import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { signIn } from '../../../test/factories.js';
import { readFixture } from '../../../test/replay-server.js';
import { startTenantGraphServer, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { environmentTenantTask, ENVIRONMENT_TENANT_NAME } from './environment-tenant.js';

// Each test sets up its own database, local Graph and tenants, so no test depends on another's leftovers.
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const CLIENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

type RawMessage = { id: string; title: string; lastModifiedDateTime: string; body: { content: string } } & Record<string, unknown>;
const recorded = () => JSON.parse(readFixture('messages-a.json')) as RawMessage[];

let t: TestContext | undefined;
const servers: TenantGraphServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await t?.close();
  t = undefined;
});

async function setUp(tenants: FakeTenant[], env: Record<string, string> = {}) {
  const graph = await startTenantGraphServer(tenants);
  servers.push(graph);
  t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '2', ...env });
  const { agent } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
  return { graph, t, admin: agent };
}

const fake = (directoryId: string, messages: unknown[], extra: Partial<FakeTenant> = {}): FakeTenant => ({
  directoryId,
  clientId: CLIENT,
  secret: `secret-${directoryId.slice(0, 4)}`,
  messages,
  ...extra,
});

async function addTenant(admin: request.Agent, name: string, directoryId: string, extra: Record<string, unknown> = {}) {
  const res = await admin
    .post('/api/admin/tenants')
    .send({ name, tenantId: directoryId, clientId: CLIENT, clientSecret: `secret-${directoryId.slice(0, 4)}`, ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string };
}

async function tenantsOf(ctx: TestContext, externalId: string) {
  const { rows } = await ctx.database.pool.query<{ name: string; expired: boolean }>(
    `SELECT t.name, it.expired FROM item_tenants it JOIN tenants t ON t.id = it.tenant_id JOIN items i ON i.id = it.item_id
     WHERE i.external_id = $1 ORDER BY t.name`,
    [externalId],
  );
  return rows;
}

async function itemOf(ctx: TestContext, externalId: string) {
  const { rows } = await ctx.database.pool.query<{ id: number; title: string; is_removed: boolean; history: string[] }>(
    `SELECT i.id, i.title, i.is_removed,
            array(SELECT change_type::text || ':' || coalesce(s.tenant_name, '') FROM item_history h LEFT JOIN sync_history s ON s.id = h.sync_id
                  WHERE h.item_id = i.id ORDER BY h.id) AS history
     FROM items i WHERE i.external_id = $1`,
    [externalId],
  );
  return rows[0];
}

describe('Admin → Tenants', () => {
  it('adds a tenant private and enabled, never returns its secret, and lists it', async () => {
    const { admin } = await setUp([]);
    const res = await admin
      .post('/api/admin/tenants')
      .send({ name: 'Contoso', tenantId: A, clientId: CLIENT, clientSecret: 's3cret-value', secretExpiresOn: '2027-03-01' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Contoso',
      tenantId: A,
      visibility: 'private',
      enabled: true,
      cloud: 'worldwide',
      secretSet: true,
      secretExpiresOn: '2027-03-01',
    });
    expect(JSON.stringify(res.body)).not.toContain('s3cret-value');
    const { rows } = await t!.database.pool.query<{ client_secret_sealed: string }>('SELECT client_secret_sealed FROM tenants');
    expect(rows[0]!.client_secret_sealed).not.toContain('s3cret-value');
    const list = await admin.get('/api/admin/tenants');
    expect(list.body.map((x: { name: string }) => x.name)).toEqual(['Contoso']);
  });

  it('refuses bad input naming the field, a second tenant for the same directory, and anyone but an admin', async () => {
    const { admin } = await setUp([]);
    const bad = await admin.post('/api/admin/tenants').send({ name: 'X', tenantId: 'not a tenant', clientId: CLIENT, clientSecret: 's', cloud: 'moon' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['cloud', 'tenantId']);
    await addTenant(admin, 'Contoso', A);
    const twice = await admin.post('/api/admin/tenants').send({ name: 'Contoso 2', tenantId: A.toUpperCase(), clientId: CLIENT, clientSecret: 's' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(`Directory ${A.toUpperCase()} is already added as Contoso`);
    const { agent: reader } = await signIn(t!.app, t!.database.db, { roles: ['Moderator'] });
    expect((await reader.get('/api/admin/tenants')).status).toBe(403);
    expect((await reader.post('/api/admin/tenants').send({})).status).toBe(403);
  });

  it('changes a tenant and replaces its secret', async () => {
    const { admin, graph } = await setUp([fake(A, recorded())]);
    const tenant = await addTenant(admin, 'Contoso', A, { clientSecret: 'old-secret' });
    expect((await admin.post(`/api/admin/tenants/${tenant.id}/test`)).body.ok).toBe(false);
    const changed = await admin
      .patch(`/api/admin/tenants/${tenant.id}`)
      .send({ name: 'Contoso EU', visibility: 'public', clientSecret: graph.tenants.get(A)!.secret });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Contoso EU', visibility: 'public' });
    expect((await admin.post(`/api/admin/tenants/${tenant.id}/test`)).body.ok).toBe(true);
    expect((await admin.patch('/api/admin/tenants/999').send({ name: 'x' })).status).toBe(404);
    expect((await admin.patch(`/api/admin/tenants/${tenant.id}`).send({ visibility: 'hidden' })).body.error.issues[0].path).toBe('visibility');
  });
});

describe('Test connection', () => {
  it('says what works and exactly what is missing', async () => {
    const { admin, graph } = await setUp([fake(A, recorded()), fake(B, [], { roles: ['ServiceMessage.Read.All'] }), fake(C, [], { roles: [] })]);
    const good = await addTenant(admin, 'Good', A);
    const noHealth = await addTenant(admin, 'No health', B);
    const noConsent = await addTenant(admin, 'No consent', C);
    const wrong = await addTenant(admin, 'Wrong secret', '44444444-4444-4444-8444-444444444444');

    expect((await admin.post(`/api/admin/tenants/${good.id}/test`)).body).toEqual({
      ok: true,
      message: 'Connected: every check passed',
      checks: [
        { name: 'token', ok: true, message: 'Signed in with the app.' },
        { name: 'messages', ok: true, message: 'Read Message Center.' },
        { name: 'health', ok: true, message: 'Read Service Health.' },
        { name: 'licences', ok: true, message: 'Read licences.' },
        { name: 'usage', ok: true, message: 'Read usage reports (counts work with concealed names).' },
      ],
    });
    const health = (await admin.post(`/api/admin/tenants/${noHealth.id}/test`)).body;
    expect(health.ok).toBe(false);
    // Licences are optional: said, but never what fails the test.
    expect(health.checks[3]).toEqual({
      name: 'licences',
      ok: false,
      message:
        'Missing Organization.Read.All (optional: only the "Only products we license" filter needs it): add it to the app as an application permission and grant admin consent.',
    });
    expect(health.checks[2]).toEqual({
      name: 'health',
      ok: false,
      message: 'Missing ServiceHealth.Read.All: add it to the app as an application permission and grant admin consent.',
    });
    const consent = (await admin.post(`/api/admin/tenants/${noConsent.id}/test`)).body;
    expect(consent.checks[0].message).toMatch(/admin consent is missing/);
    expect(consent.checks[1].message).toMatch(/^Missing ServiceMessage\.Read\.All/);
    const refused = (await admin.post(`/api/admin/tenants/${wrong.id}/test`)).body;
    // Without Organization.Read.All the connection works: only the licences check says what it would add.
    graph.tenants.get(A)!.roles = ['ServiceMessage.Read.All', 'ServiceHealth.Read.All', 'Reports.Read.All'];
    const noLicences = (await admin.post(`/api/admin/tenants/${good.id}/test`)).body;
    expect(noLicences).toMatchObject({ ok: true, message: 'Connected; optional licences failed' });
    expect(noLicences.checks.map((c: { name: string; ok: boolean }) => `${c.name}:${c.ok}`)).toEqual([
      'token:true',
      'messages:true',
      'health:true',
      'licences:false',
      'usage:true',
    ]);
    expect(refused).toEqual({
      ok: false,
      message: 'Not ready: token',
      checks: [{ name: 'token', ok: false, message: expect.stringMatching(/^Entra does not know this tenant/) }],
    });
  });

  it('names a wrong secret', async () => {
    const { admin } = await setUp([fake(A, [])]);
    const tenant = await addTenant(admin, 'Contoso', A, { clientSecret: 'not-the-secret' });
    const res = await admin.post(`/api/admin/tenants/${tenant.id}/test`);
    expect(res.body.checks).toEqual([{ name: 'token', ok: false, message: expect.stringMatching(/^Wrong client secret/) }]);
  });
});

describe('Message Center of many tenants', () => {
  it('keeps a post several tenants received as one item with its tenants', async () => {
    const messages = recorded();
    const { admin } = await setUp([fake(A, messages), fake(B, messages.slice(0, 4))]);
    await addTenant(admin, 'Contoso', A);
    await addTenant(admin, 'Fabrikam', B);
    const res = await admin.post('/api/admin/sync-message-center');
    expect(res.status).toBe(200);
    expect(res.body.runs.map((r: { tenant: { name: string }; status: string }) => [r.tenant.name, r.status])).toEqual([
      ['Contoso', 'success'],
      ['Fabrikam', 'success'],
    ]);
    const { rows } = await t!.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE source = 'messages'`);
    expect(rows[0]!.n).toBe(messages.length);
    expect(await tenantsOf(t!, messages[0]!.id)).toEqual([
      { name: 'Contoso', expired: false },
      { name: 'Fabrikam', expired: false },
    ]);
    expect(await tenantsOf(t!, messages[5]!.id)).toEqual([{ name: 'Contoso', expired: false }]);
    // One 'new' entry per post, whichever tenant saw it first.
    expect((await itemOf(t!, messages[0]!.id))!.history).toHaveLength(1);
  });

  it('shows the newest version; an older version another tenant still shows is no change over time', async () => {
    const messages = recorded();
    const first = messages[0]!;
    const { admin, graph } = await setUp([fake(A, [first]), fake(B, [first])]);
    const contoso = await addTenant(admin, 'Contoso', A);
    const fabrikam = await addTenant(admin, 'Fabrikam', B);
    await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    await admin.post(`/api/admin/tenants/${fabrikam.id}/sync`);
    // Fabrikam gets a newer version; Contoso keeps the old one.
    graph.tenants.get(B)!.messages = [{ ...first, title: `${first.title} (updated)`, lastModifiedDateTime: '2026-02-06T10:00:00Z' }];
    await admin.post(`/api/admin/tenants/${fabrikam.id}/sync`);
    await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    const item = await itemOf(t!, first.id);
    expect(item!.title).toBe(`${first.title} (updated)`);
    expect(item!.history).toEqual(['new:Contoso', 'changed:Fabrikam']);
  });

  it('a tenant’s own copy changing is a change over time even when Microsoft keeps the date', async () => {
    const first = recorded()[0]!;
    const { admin, graph } = await setUp([fake(A, [first])]);
    const contoso = await addTenant(admin, 'Contoso', A);
    await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    graph.tenants.get(A)!.messages = [{ ...first, title: `${first.title} (silently edited)` }];
    const run = await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    expect(run.body.message).toMatch(/0 new, 1 changed/);
    expect((await itemOf(t!, first.id))!.history).toEqual(['new:Contoso', 'changed:Contoso']);
  });

  it('removes a post only when no tenant lists it any more', async () => {
    const messages = recorded();
    const [x, y] = messages;
    const { admin, graph } = await setUp([fake(A, [x, y]), fake(B, [x])], { SYNC_MIN_REMOVED_ITEMS: '100' });
    const contoso = await addTenant(admin, 'Contoso', A);
    const fabrikam = await addTenant(admin, 'Fabrikam', B);
    await admin.post('/api/admin/sync-message-center');
    graph.tenants.get(A)!.messages = [y];
    const run = await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    expect(run.body.runs[0].status).toBe('success');
    expect((await itemOf(t!, x!.id))!.is_removed).toBe(false);
    expect(await tenantsOf(t!, x!.id)).toEqual([
      { name: 'Contoso', expired: true },
      { name: 'Fabrikam', expired: false },
    ]);
    graph.tenants.get(B)!.messages = [];
    await admin.post(`/api/admin/tenants/${fabrikam.id}/sync`);
    expect((await itemOf(t!, x!.id))!.is_removed).toBe(true);
    expect((await itemOf(t!, y!.id))!.is_removed).toBe(false);
  });

  it('one tenant failing stops no other, and its run says which tenant failed', async () => {
    const messages = recorded();
    const { admin } = await setUp([fake(A, messages), fake(B, messages, { revoked: true })]);
    await addTenant(admin, 'Contoso', A);
    await addTenant(admin, 'Revoked', B);
    const res = await admin.post('/api/admin/sync-message-center');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/1 failed/);
    const history = (await admin.get('/api/admin/sync-history')).body.syncHistory as {
      tenant: { name: string } | null;
      status: string;
      errorMessage: string | null;
    }[];
    const byTenant = Object.fromEntries(history.map((r) => [r.tenant?.name, r.status]));
    expect(byTenant).toEqual({ Contoso: 'success', Revoked: 'failed' });
    const list = (await admin.get('/api/admin/tenants')).body as {
      name: string;
      feeds: { messages: { error: string | null } };
      counts: { livePosts: number };
    }[];
    expect(list.find((x) => x.name === 'Revoked')!.feeds.messages.error).toMatch(/HTTP 401/);
    // Live: the posts not past their end date.
    const { rows } = await t!.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE source = 'messages' AND NOT is_removed`);
    expect(list.find((x) => x.name === 'Contoso')!.counts).toEqual({ livePosts: rows[0]!.n, posts: messages.length, issues: 0 });
  });

  it('waits as Graph says when it throttles, and reads a GCC High tenant from its own hosts', async () => {
    const messages = recorded();
    const gcc = await startTenantGraphServer([fake(C, messages.slice(0, 2))]);
    servers.push(gcc);
    const { admin, graph } = await setUp([fake(A, messages, { throttle: { times: 1, retryAfterSeconds: 1, feeds: ['messages'] } })], {
      GRAPH_CLOUD_URLS: JSON.stringify({ gcchigh: { authorityUrl: gcc.url, graphUrl: gcc.url } }),
    });
    const contoso = await addTenant(admin, 'Contoso', A);
    const high = await addTenant(admin, 'Agency', C, { cloud: 'gcchigh' });
    const throttled = await admin.post(`/api/admin/tenants/${contoso.id}/sync`);
    expect(throttled.body.runs[0].status).toBe('success');
    expect(graph.requests.filter((r) => r.includes('/messages'))).toEqual([`${A} GET /messages 429`, `${A} GET /messages?page=1`]);
    const gov = await admin.post(`/api/admin/tenants/${high.id}/sync`);
    expect(gov.body.runs[0].status).toBe('success');
    expect(gcc.requests).toContain(`${C} GET /messages?page=1`);
    expect(graph.requests.some((r) => r.startsWith(C))).toBe(false);
  });

  it('removes a tenant keeping its posts, or with the posts only it received', async () => {
    const messages = recorded();
    const { admin } = await setUp([fake(A, messages.slice(0, 3)), fake(B, messages.slice(2, 5))]);
    const contoso = await addTenant(admin, 'Contoso', A);
    const fabrikam = await addTenant(admin, 'Fabrikam', B);
    await admin.post('/api/admin/sync-message-center');
    const kept = await admin.delete(`/api/admin/tenants/${contoso.id}`);
    expect(kept.body).toEqual({ success: true, message: 'Removed Contoso; its posts stay in the archive' });
    expect((await admin.get('/api/admin/tenants')).body.map((x: { name: string }) => x.name)).toEqual(['Fabrikam']);
    const { rows } = await t!.database.pool.query('SELECT client_id, client_secret_sealed FROM tenants WHERE id = $1', [contoso.id]);
    expect(rows[0]).toEqual({ client_id: null, client_secret_sealed: null });
    expect(await tenantsOf(t!, messages[0]!.id)).toEqual([{ name: 'Contoso', expired: false }]);
    const gone = await admin.delete(`/api/admin/tenants/${fabrikam.id}?deletePosts=true`);
    // Post 2 was Contoso's too (kept in the archive), posts 3 and 4 only Fabrikam's.
    expect(gone.body.message).toBe('Removed Fabrikam and 2 posts no other tenant received');
    expect(await itemOf(t!, messages[2]!.id)).toBeDefined();
    expect(await itemOf(t!, messages[3]!.id)).toBeUndefined();
    expect((await admin.delete(`/api/admin/tenants/${contoso.id}`)).status).toBe(404);
    expect((await admin.delete(`/api/admin/tenants/${contoso.id}?deletePosts=maybe`)).body.error.issues[0].path).toBe('deletePosts');
  });
});

describe('the GRAPH_* settings as the first tenant', () => {
  it('become a public tenant once, and the posts synced before belong to it', async () => {
    const messages = recorded();
    const { graph, admin } = await setUp([fake(A, messages)]);
    await t!.ctx.services.sync.applyMessages([], { trigger: 'cli' });
    // Posts from before tenants existed: synced unscoped.
    const env = { GRAPH_TENANT_ID: A, GRAPH_CLIENT_ID: CLIENT, GRAPH_CLIENT_SECRET: graph.tenants.get(A)!.secret };
    await t!.close();
    t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, ...env });
    const legacy = await t.ctx.services.sync.syncMessages({ trigger: 'schedule' });
    expect(legacy.run.status).toBe('success');
    await environmentTenantTask(t.ctx);
    await environmentTenantTask(t.ctx);
    const { rows } = await t.database.pool.query<{ name: string; visibility: string; from_environment: boolean }>(
      'SELECT name, visibility, from_environment FROM tenants',
    );
    expect(rows).toEqual([{ name: ENVIRONMENT_TENANT_NAME, visibility: 'public', from_environment: true }]);
    expect(await tenantsOf(t, messages[0]!.id)).toEqual([{ name: ENVIRONMENT_TENANT_NAME, expired: false }]);
    // From now on the trigger reads it as a tenant: nothing new, nothing removed.
    const run = await t.ctx.services.sync.syncMessageCenter({ trigger: 'schedule' });
    expect(run.runs.map((r) => [r.tenant.name, r.result?.run.status, r.result?.run.newItems, r.result?.run.removedItems])).toEqual([
      [ENVIRONMENT_TENANT_NAME, 'success', 0, 0],
    ]);
    void admin;
  });
});

describe('who may see a private tenant', () => {
  it('is set per user, naming an unknown tenant', async () => {
    const { admin } = await setUp([]);
    const contoso = await addTenant(admin, 'Contoso', A);
    const { user } = await signIn(t!.app, t!.database.db);
    expect((await admin.put(`/api/admin/app-users/${user.id}/tenants`).send({ tenantIds: [contoso.id, contoso.id] })).body).toEqual({
      tenantIds: [contoso.id],
    });
    const unknown = await admin.put(`/api/admin/app-users/${user.id}/tenants`).send({ tenantIds: [999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.issues[0]).toEqual({ path: 'tenantIds', message: 'no tenant has the id 999' });
    expect((await admin.put('/api/admin/app-users/99999/tenants').send({ tenantIds: [] })).status).toBe(404);
  });
});

describe('access per tenant', () => {
  it('shows a private tenant’s posts to admins and the users given it, nowhere to anyone else', async () => {
    const shared = recorded().slice(0, 3);
    const only = { ...shared[0]!, id: 'MC990001', title: 'Private rollout for Fabrikam only' };
    const { admin } = await setUp([fake(A, shared), fake(B, [...shared, only])]);
    await addTenant(admin, 'Contoso', A, { visibility: 'public' });
    const fabrikam = await addTenant(admin, 'Fabrikam', B);
    await admin.post('/api/admin/sync-message-center');
    const { user: granted, agent: grantedAgent } = await signIn(t!.app, t!.database.db);
    const { rows: live } = await t!.database.pool.query<{ external_id: string }>(`SELECT external_id FROM items WHERE source = 'messages' AND NOT is_removed`);
    const awaitedLive = live.map((r) => r.external_id);
    const { agent: other } = await signIn(t!.app, t!.database.db);
    await admin.put(`/api/admin/app-users/${granted.id}/tenants`).send({ tenantIds: [fabrikam.id] });

    const listed = async (agent: request.Agent | request.SuperTest<request.Test>) =>
      ((await agent.get('/api/unified/items?sources=messages&limit=100')).body.items as { id: string }[]).map((i) => i.id.replace(/^messages-/, ''));
    expect(await listed(request(t!.app) as unknown as request.Agent)).not.toContain('MC990001');
    expect(await listed(other)).not.toContain('MC990001');
    expect(await listed(grantedAgent)).toContain('MC990001');
    expect(await listed(admin)).toContain('MC990001');
    // Posts both received stay visible to everyone through the public tenant.
    expect(await listed(other)).toContain(shared[1]!.id);

    expect((await request(t!.app).get('/api/message-center/items/MC990001')).status).toBe(404);
    expect((await other.get('/api/message-center/items/MC990001/history')).status).toBe(404);
    expect((await other.get('/api/message-center/items/MC990001/versions')).status).toBe(404);
    expect((await grantedAgent.get('/api/message-center/items/MC990001')).status).toBe(200);
    const exported = async (agent: request.Agent) => (await agent.get('/api/dashboard/export?sources=messages')).text;
    expect(await exported(other)).not.toContain('MC990001');
    expect(await exported(grantedAgent)).toContain('MC990001');
    // Its Tenants column names the tenants the reader may see.
    const rowOf = (csv: string, id: string) => csv.split('\r\n').find((line) => line.startsWith(id)) ?? '';
    expect(rowOf(await exported(grantedAgent), shared[1]!.id)).toContain('"Contoso, Fabrikam"');
    expect(rowOf(await exported(other), shared[1]!.id)).toContain(',Contoso,');
    expect((await request(t!.app).get('/api/dashboard/stats')).body.bySource.messages).toBe(
      shared.filter((m) => !m.endDateTime || Date.parse(String(m.endDateTime)) > Date.parse('2026-02-07T12:00:00Z')).length,
    );

    // The tenant filter, and the tenants each caller may filter by.
    const contosoId = (await admin.get('/api/admin/tenants')).body.find((x: { name: string }) => x.name === 'Contoso').id as number;
    expect((await request(t!.app).get('/api/tenants')).body).toEqual({ tenants: [{ id: contosoId, name: 'Contoso' }], total: 1 });
    expect((await grantedAgent.get('/api/tenants')).body.tenants.map((x: { name: string }) => x.name)).toEqual(['Contoso', 'Fabrikam']);
    const filtered = async (agent: request.Agent, ids: number[]) =>
      ((await agent.get(`/api/unified/items?tenants=${ids.join(',')}&limit=100`)).body.items as { id: string }[])
        .map((i) => i.id.replace(/^messages-/, ''))
        .sort();
    // Fabrikam received every post (the live ones are listed).
    expect(await filtered(grantedAgent, [fabrikam.id])).toEqual([...shared.map((m) => m.id), 'MC990001'].filter((id) => awaitedLive.includes(id)).sort());
    // Filtering by a tenant one may not see reveals nothing, not even which public posts it also received.
    expect(await filtered(other, [fabrikam.id])).toEqual([]);
    expect((await other.get('/api/unified/items?tenants=abc')).body.error.issues[0].path).toMatch(/^tenants/);
    // The post says which tenants received it, of those the caller may see.
    const item = async (agent: request.Agent, id: string) =>
      (await agent.get(`/api/message-center/items/${id}`)).body.tenants.map((x: { name: string }) => x.name);
    expect(await item(other, shared[1]!.id)).toEqual(['Contoso']);
    expect(await item(grantedAgent, shared[1]!.id)).toEqual(['Contoso', 'Fabrikam']);

    // MCP answers with the token's user's view.
    const tokenOf = async (agent: request.Agent) => (await agent.post('/api/tokens').send({ name: 'agent' })).body.token as string;
    const search = async (token: string) => {
      const res = await request(t!.app)
        .post('/api/mcp')
        .set('Authorization', `Bearer ${token}`)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_items', arguments: { search: 'MC990001' } } });
      return JSON.stringify(res.body);
    };
    expect(await search(await tokenOf(other))).not.toContain('MC990001');
    expect(await search(await tokenOf(grantedAgent))).toContain('MC990001');
  });
});
