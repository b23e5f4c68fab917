import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { sessionCookieName } from '../../http/session-policy.js';
import { insertHistory, insertMessage, insertRoadmapItem, sessionCookieFor, createUser } from '../../../test/factories.js';
import { grantTenant, insertTenant } from '../../../test/tenant-fixtures.js';
import { itemRelevance } from '../../db/schema/index.js';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestContext;
let server: Server;
let baseUrl: string;
let token: string;
/** A token of a user who sees only the public tenant (Contoso); `token`'s user was also given Fabrikam. */
let contosoToken: string;
const tenant = { contoso: 0, fabrikam: 0 };
const REASON = {
  recap: '1,240 people used Teams in the last 30 days, 82 % of licensed users',
  recapFabrikam: '60 people used Teams in the last 30 days, 12 % of licensed users',
  outlook: '3 people used Outlook in the last 30 days, under 1 % of licensed users',
  outlookFabrikam: '75 people used Outlook in the last 30 days, 25 % of licensed users',
};

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_URL: 'https://radar.example.com' }, { now: '2026-02-07T12:00:00Z' });
  const db = t.database.db;
  const recap = await insertRoadmapItem(db, {
    externalId: '412345',
    title: 'Microsoft Teams: intelligent meeting recap',
    description: '<p>Recap for <b>every</b> meeting.</p>',
    status: 'Rolling out',
    releaseDate: 'March CY2026',
    previewDate: 'January CY2026',
    modifiedDate: new Date('2026-02-05T00:00:00Z'),
  });
  await insertHistory(db, recap.id, {
    changeType: 'changed',
    changeDate: new Date('2026-02-05T09:00:00Z'),
    changedFields: ['status', 'releaseDate'],
    previousValues: { status: 'In development', releaseDate: 'February CY2026' },
    newValues: { status: 'Rolling out', releaseDate: 'March CY2026' },
  });
  await insertRoadmapItem(db, { externalId: '412346', title: 'Outlook: calendar view', products: ['Outlook'], releaseDate: 'June CY2026' });
  const gone = await insertRoadmapItem(db, { externalId: '412350', title: 'Retired Planner view', products: ['Planner'], isRemoved: true });
  await insertHistory(db, gone.id, {
    changeType: 'removed',
    changeDate: new Date('2026-02-06T00:00:00Z'),
    changedFields: ['isRemoved'],
    previousValues: { isRemoved: false },
    newValues: { isRemoved: true },
  });
  const message = await insertMessage(db, {
    externalId: 'MC1000269',
    title: 'Teams recap is rolling out',
    summary: 'Recap rolls out in February.',
    roadmapIds: ['412345'],
    bodyHtml:
      '<p><b>[What and Why:]</b></p><p>Recap for <b>every</b> meeting.</p><p><b>[Rollout Schedule:]</b></p><ul><li>General Availability (Worldwide): mid-February 2026</li></ul>',
    timing: [{ ring: 'general', label: 'mid-February 2026', start: '2026-02-11', end: '2026-02-20' }],
    featureStatus: { '412345': [{ RoadmapId: 412345, Platform: 'Web', Status: 'InRollout', LatestRing: null }] },
  });
  await t.database.pool.query(`INSERT INTO message_roadmap_links (message_item_id, roadmap_external_id, origin) VALUES ($1, '412345', 'details')`, [
    message.id,
  ]);

  // Relevance: Contoso is public, Fabrikam private. 412345 is High for Contoso and Medium for Fabrikam; 412346 Low for
  // Contoso and Medium for Fabrikam; the post and the removed item have none.
  tenant.contoso = (await insertTenant(db, { name: 'Contoso', visibility: 'public' })).id;
  tenant.fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'private' })).id;
  const outlook = await t.database.pool.query<{ id: number }>(`SELECT id FROM items WHERE external_id = '412346'`);
  const row = (itemId: number, tenantId: number, level: number, reason: string, usage?: { workload: string; activeUsers: number; share: number }) => ({
    itemId,
    tenantId,
    level,
    reason,
    computedAt: t.clock.now(),
    ...usage,
  });
  await db
    .insert(itemRelevance)
    .values([
      row(recap.id, tenant.contoso, 3, REASON.recap, { workload: 'teams', activeUsers: 1240, share: 0.82 }),
      row(recap.id, tenant.fabrikam, 2, REASON.recapFabrikam, { workload: 'teams', activeUsers: 60, share: 0.12 }),
      row(outlook.rows[0]!.id, tenant.contoso, 1, REASON.outlook),
      row(outlook.rows[0]!.id, tenant.fabrikam, 2, REASON.outlookFabrikam),
    ]);

  const tokenOf = async (userId: number) => {
    const cookie = await sessionCookieFor(db, userId, { cookieName: sessionCookieName(t.ctx.publicUrl) });
    const created = await request(t.app).post('/api/tokens').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ name: 'agent' });
    if (created.status !== 201) throw new Error(`token not created: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.token as string;
  };
  const user = await createUser(db, { roles: ['User'] });
  await grantTenant(db, user.id, tenant.fabrikam);
  token = await tokenOf(user.id);
  contosoToken = await tokenOf((await createUser(db, { roles: ['User'] })).id);
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

async function httpClient(bearer = token): Promise<Client> {
  const client = new Client({ name: 'radar-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', baseUrl), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

/** The same checks over either transport: the tools, their answers and their errors. */
async function exerciseTools(client: Client) {
  const tools = (await client.listTools()).tools;
  expect(tools.map((tool) => tool.name).sort()).toEqual(['get_item', 'release_calendar', 'search_items', 'what_changed']);
  for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
  const search = tools.find((tool) => tool.name === 'search_items')!;
  expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['search', 'products', 'sources', 'changeTypes', 'limit']));

  const found = await call(client, 'search_items', { search: 'recap', sources: ['roadmap'] });
  expect(found.isError).toBeFalsy();
  const items = (found.structuredContent as { items: { id: string; url: string; summary: string }[]; total: number }).items;
  expect(items.map((i) => i.id)).toEqual(['412345']);
  expect(items[0]!.url).toBe('https://radar.example.com/roadmap/412345');
  expect(items[0]!.summary).toBe('Recap for every meeting.');
  expect(JSON.parse(found.content[0]!.text).total).toBe(1);

  const item = await call(client, 'get_item', { id: 'roadmap-412345' });
  const detail = item.structuredContent as {
    item: { title: string };
    history: { type: string; changes: { field: string; from: unknown; to: unknown }[] }[];
    linkedItems: { id: string }[];
  };
  expect(detail.item.title).toBe('Microsoft Teams: intelligent meeting recap');
  expect(detail.history[0]!.changes).toEqual([
    { field: 'status', from: 'In development', to: 'Rolling out' },
    { field: 'releaseDate', from: 'February CY2026', to: 'March CY2026' },
  ]);
  expect(detail.linkedItems.map((l) => l.id)).toEqual(['MC1000269']);
  const message = await call(client, 'get_item', { id: 'mc1000269' });
  expect((message.structuredContent as typeof detail).linkedItems.map((l) => l.id)).toEqual(['412345']);
  // A post's body by section as plain text, its rollout windows and the status for the tenant.
  expect((message.structuredContent as { item: Record<string, unknown> }).item).toMatchObject({
    sections: [
      { title: 'What and Why', kind: 'whatAndWhy', text: 'Recap for every meeting.' },
      { title: 'Rollout Schedule', kind: 'rollout', text: 'General Availability (Worldwide): mid-February 2026' },
    ],
    timing: [{ ring: 'general', label: 'mid-February 2026', start: '2026-02-11', end: '2026-02-20' }],
    tenantStatus: [{ roadmapId: '412345', platform: 'Web', status: 'InRollout', label: 'Rolling out' }],
  });

  const changed = await call(client, 'what_changed', { since: '2026-02-01' });
  const changes = changed.structuredContent as { items: { item: { id: string; isRemoved: boolean }; changes: { type: string }[] }[]; truncated: boolean };
  // Removals are changes too: the removed item is reported although the list leaves it out.
  expect(changes.items.map((c) => [c.item.id, c.item.isRemoved, c.changes[0]!.type])).toEqual([
    ['412350', true, 'removed'],
    ['412345', false, 'changed'],
  ]);
  const teamsOnly = await call(client, 'what_changed', { since: '2026-02-01T00:00:00Z', products: 'Microsoft Teams' });
  expect((teamsOnly.structuredContent as typeof changes).items.map((c) => c.item.id)).toEqual(['412345']);

  const calendar = await call(client, 'release_calendar', { from: '2026-03', to: '2026-06' });
  const releases = calendar.structuredContent as { items: { gaMonth: string; previewMonth: string | null; item: { id: string } }[] };
  expect(releases.items.map((r) => [r.item.id, r.gaMonth, r.previewMonth])).toEqual([
    ['412345', '2026-03', '2026-01'],
    ['412346', '2026-06', null],
  ]);

  // Mistakes are tool errors the agent can read, and the server keeps answering.
  const unknown = await call(client, 'get_item', { id: '999999' });
  expect(unknown).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No roadmap item with id 999999' }] });
  const badId = await call(client, 'get_item', { id: 'not an id' });
  expect(badId.isError).toBe(true);
  expect(badId.content[0]!.text).toContain('id must be a roadmap id');
  const badFilter = await call(client, 'search_items', { sortField: 'nope' });
  expect(badFilter.isError).toBe(true);
  expect(badFilter.content[0]!.text).toContain('sortField');
  const badRange = await call(client, 'release_calendar', { from: '2026-06', to: '2026-03' });
  expect(badRange.isError).toBe(true);
  expect(badRange.content[0]!.text).toContain('to must not be before from');
  const badSince = await call(client, 'what_changed', { since: 'yesterday' });
  expect(badSince.isError).toBe(true);
  expect((await call(client, 'search_items', { limit: 1 })).isError).toBeFalsy();
}

describe('MCP over Streamable HTTP (/api/mcp)', () => {
  it('serves the read-only tools to an API token', async () => {
    const client = await httpClient();
    try {
      await exerciseTools(client);
    } finally {
      await client.close();
    }
  });

  it('requires sign-in: no token or a revoked one is a 401', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const anonymous = await request(t.app).post('/api/mcp').set('Accept', 'application/json, text/event-stream').send(init);
    expect(anonymous.status).toBe(401);
    await expect(httpClient('rdr_revoked-or-never-existed')).rejects.toThrow();
    const stream = await request(t.app).get('/api/mcp').set('Authorization', `Bearer ${token}`);
    expect(stream.status).toBe(405);
    expect(stream.headers.allow).toBe('POST');
    const notJsonRpc = await request(t.app).post('/api/mcp').set('Authorization', `Bearer ${token}`).send({ hello: 'world' });
    expect(notJsonRpc.status).toBe(400);
    expect(notJsonRpc.body.error.message).toBe('The body must be a JSON-RPC 2.0 message ("jsonrpc": "2.0") or a batch of them');
    // A batch runs at most 5 calls: each is real work.
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_items', arguments: {} } });
    const six = await request(t.app)
      .post('/api/mcp')
      .set('Authorization', `Bearer ${token}`)
      .set('Accept', 'application/json, text/event-stream')
      .send([1, 2, 3, 4, 5, 6].map(call));
    expect(six.status).toBe(400);
    expect(JSON.stringify(six.body)).toMatch(/at most 5 messages|batch/);
  });
});

describe('MCP over stdio (npm run mcp)', () => {
  it('serves the same tools from the real entry point against the database', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', '--conditions=source', 'src/mcp/main.ts'],
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.database.url, PUBLIC_URL: 'https://radar.example.com', LOG_LEVEL: 'warn', NODE_ENV: 'production' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'radar-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      await exerciseTools(client);
      // Without an identity the server reads as a guest: no relevance, and its filter and order are refused.
      const found = (await call(client, 'search_items', {})).structuredContent as { items: Record<string, unknown>[] };
      expect(found.items.length).toBeGreaterThan(0);
      for (const item of found.items) expect(item).not.toHaveProperty('relevance');
      expect((await call(client, 'get_item', { id: '412345' })).structuredContent).not.toHaveProperty('relevanceByTenant');
      for (const [tool, args] of [
        ['search_items', { relevance: 'high' }],
        ['search_items', { sortField: 'relevance' }],
        ['what_changed', { since: '2026-02-01', relevance: ['high'] }],
        ['release_calendar', { from: '2026-03', to: '2026-06', relevance: 'high' }],
      ] as const) {
        const refused = await call(client, tool, args);
        expect([tool, refused.isError, refused.content[0]!.text]).toEqual([
          tool,
          true,
          "Sign in to filter or sort by relevance: it is read from your tenants' own usage. Connect to /api/mcp with a personal API token (the stdio server reads as a guest).",
        ]);
      }
    } catch (err) {
      throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('exits with a clear message when there is no database', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/mcp/main.ts'], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: '/nonexistent-radar-data' },
      input: '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('M365 Radar MCP: no database. Start M365 Radar first (npm start)');
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('relevance in the MCP tools (a caller with an identity)', () => {
  type Relevance = { level: string; tenant: string; tenantId: number; reason: string } | null;
  type Item = { id: string; relevance?: Relevance };
  const withClient = async (bearer: string, run: (client: Client) => Promise<void>) => {
    const client = await httpClient(bearer);
    try {
      await run(client);
    } finally {
      await client.close();
    }
  };
  const itemsOf = (result: ToolResult) => {
    expect(result.isError).toBeFalsy();
    return (result.structuredContent as { items: Item[] }).items;
  };
  const high = () => ({ level: 'high', tenant: 'Contoso', tenantId: tenant.contoso, reason: REASON.recap });

  it('says what relevance is in the instructions and the tool descriptions', async () => {
    await withClient(token, async (client) => {
      expect(client.getInstructions()).toMatch(/relevance: \{ level, tenant, tenantId, reason \}.*usage reports/);
      const tools = (await client.listTools()).tools;
      const search = tools.find((tool) => tool.name === 'search_items')!;
      expect(search.description).toContain('relevance (high, medium, low, unknown');
      expect(search.description).toContain('sortField relevance');
      expect(Object.keys(search.inputSchema.properties ?? {})).toContain('relevance');
      expect(tools.find((tool) => tool.name === 'get_item')!.description).toContain('relevanceByTenant');
    });
  });

  it('gives every item its highest relevance among the caller’s tenants, null when it has none', async () => {
    await withClient(token, async (client) => {
      const items = itemsOf(await call(client, 'search_items', {}));
      expect(Object.fromEntries(items.map((i) => [i.id, i.relevance]))).toEqual({
        '412345': high(),
        '412346': { level: 'medium', tenant: 'Fabrikam', tenantId: tenant.fabrikam, reason: REASON.outlookFabrikam },
        MC1000269: null,
      });
      const changed = (await call(client, 'what_changed', { since: '2026-02-01' })).structuredContent as { items: { item: Item }[] };
      expect(changed.items.map((c) => [c.item.id, c.item.relevance?.level ?? null])).toEqual([
        ['412350', null],
        ['412345', 'high'],
      ]);
      const calendar = (await call(client, 'release_calendar', { from: '2026-03', to: '2026-06' })).structuredContent as { items: { item: Item }[] };
      expect(calendar.items.map((c) => [c.item.id, c.item.relevance?.level])).toEqual([
        ['412345', 'high'],
        ['412346', 'medium'],
      ]);
    });
  });

  it('filters by relevance (an array or a comma list) and sorts most relevant first', async () => {
    await withClient(token, async (client) => {
      const ids = async (tool: string, args: Record<string, unknown>) => {
        const result = await call(client, tool, args);
        expect(result.isError).toBeFalsy();
        const content = result.structuredContent as { items: (Item | { item: Item })[] };
        return content.items.map((i) => ('item' in i ? i.item.id : i.id));
      };
      expect(await ids('search_items', { relevance: ['high'] })).toEqual(['412345']);
      // Kept when one of the tenants has the level: 412345 is Medium for Fabrikam (its chip says High).
      expect((await ids('search_items', { relevance: 'medium' })).sort()).toEqual(['412345', '412346']);
      expect((await ids('search_items', { relevance: 'low,unknown' })).sort()).toEqual(['412346']);
      expect(await ids('search_items', { sortField: 'relevance', sources: 'roadmap' })).toEqual(['412345', '412346']);
      expect(await ids('search_items', { sortField: 'relevance', sortDirection: 'asc', sources: 'roadmap' })).toEqual(['412346', '412345']);
      expect(await ids('what_changed', { since: '2026-02-01', relevance: 'high' })).toEqual(['412345']);
      expect(await ids('release_calendar', { from: '2026-03', to: '2026-06', relevance: ['medium'] })).toEqual(['412345', '412346']);

      const bad = await call(client, 'search_items', { relevance: 'urgent' });
      expect(bad.isError).toBe(true);
      expect(bad.content[0]!.text).toContain('relevance must be one of high, medium, low, unknown');
    });
  });

  it('lists an item’s relevance per tenant in get_item, as the item dialog does', async () => {
    await withClient(token, async (client) => {
      const detail = (await call(client, 'get_item', { id: '412345' })).structuredContent as {
        item: Item;
        linkedItems: Item[];
        relevanceByTenant: Record<string, unknown>[];
      };
      expect(detail.item.relevance).toEqual(high());
      expect(detail.linkedItems).toEqual([expect.objectContaining({ id: 'MC1000269', relevance: null })]);
      expect(detail.relevanceByTenant).toEqual([
        {
          level: 'high',
          tenantId: tenant.contoso,
          tenantName: 'Contoso',
          reason: REASON.recap,
          workload: 'teams',
          activeUsers: 1240,
          share: expect.closeTo(0.82, 5),
          computedAt: t.clock.now().toISOString(),
        },
        expect.objectContaining({ level: 'medium', tenantName: 'Fabrikam', reason: REASON.recapFabrikam, workload: 'teams', activeUsers: 60 }),
      ]);
      expect((await call(client, 'get_item', { id: 'MC1000269' })).structuredContent).toMatchObject({ item: { relevance: null }, relevanceByTenant: [] });
    });
  });

  it('never names a private tenant the caller was not given', async () => {
    await withClient(contosoToken, async (client) => {
      const items = itemsOf(await call(client, 'search_items', { sources: 'roadmap' }));
      expect(Object.fromEntries(items.map((i) => [i.id, i.relevance]))).toEqual({
        '412345': high(),
        '412346': { level: 'low', tenant: 'Contoso', tenantId: tenant.contoso, reason: REASON.outlook },
      });
      const detail = await call(client, 'get_item', { id: '412346' });
      expect((detail.structuredContent as { relevanceByTenant: { tenantName: string }[] }).relevanceByTenant.map((r) => r.tenantName)).toEqual(['Contoso']);
      expect(JSON.stringify(detail)).not.toMatch(/Fabrikam|75 people/);
      expect(itemsOf(await call(client, 'search_items', { relevance: 'medium' }))).toEqual([]);
    });
  });
});
