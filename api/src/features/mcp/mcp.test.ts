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

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestContext;
let server: Server;
let baseUrl: string;
let token: string;

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

  const user = await createUser(db, { roles: ['User'] });
  const cookie = await sessionCookieFor(db, user.id, { cookieName: sessionCookieName(t.ctx.publicUrl) });
  const created = await request(t.app).post('/api/tokens').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ name: 'agent' });
  if (created.status !== 201) throw new Error(`token not created: ${created.status} ${JSON.stringify(created.body)}`);
  token = created.body.token;
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
