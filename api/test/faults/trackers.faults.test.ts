import { describe, expect, it } from '@jest/globals';
import { createTestDb } from '../db.js';
import { insertMessage } from '../factories.js';
import { startTenantGraphServer, type FakePlanner } from '../tenant-graph-server.js';
import { startJiraServer } from '../tracker-servers.js';
import { cleanupAfterAll, eventually, startApi } from './api-process.js';
import { adminCookie } from './fault-fixtures.js';

/**
 * A tracker that is down, and one whose answer is lost, against the built api as a real process: the task waits in
 * the outbox while Jira is down, the create whose answer never arrived is found by its label instead of being made
 * again, and when Jira is back exactly one issue exists.
 */
const cleanup = cleanupAfterAll();

describe('Jira down, an answer lost, then Jira back', () => {
  it('keeps the push while Jira is down and makes exactly one issue when it is back', async () => {
    const database = await createTestDb();
    cleanup(() => database.close());
    const jira = await startJiraServer();
    cleanup(() => jira.stop());
    const api = await startApi({
      DATABASE_URL: database.url,
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      TRACKER_RETRY_BASE_MS: '500',
      // No feed in this test; the syncs fail quietly in the background.
      ROADMAP_V2_URL: 'http://127.0.0.1:9/v2',
      ROADMAP_FEED_URL: 'http://127.0.0.1:9/roadmap',
      ROADMAP_RSS_URL: 'off',
      FEED_RETRIES: '0',
    });
    cleanup(() => api.stop('SIGKILL'));
    await insertMessage(database.db, { externalId: 'MC910001' });
    const cookie = await adminCookie(database.db);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json', origin: api.url },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const added = await call('POST', '/api/admin/integrations', {
      kind: 'jira',
      name: 'Change board',
      baseUrl: jira.url,
      email: 'bot@contoso.com',
      apiToken: 'jira-token',
      projectKey: 'CHG',
      issueType: 'Task',
    });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: number };

    // Jira is down: the push is queued, and the deliver job keeps trying.
    jira.down();
    const queued = await call('POST', '/api/triage/message-center/MC910001/tasks', { trackerId: id });
    expect(queued.status).toBe(202);
    await eventually(
      async () => (await database.pool.query(`select 1 from tracker_attempts where outcome = 'retrying'`)).rowCount! >= 2,
      70_000,
      'two failed attempts while Jira is down',
    );

    // Jira comes back, but the answer to the create is lost on the way: Jira made the issue, we never heard.
    jira.up();
    jira.cutNext('POST /rest/api/3/issue');
    await eventually(async () => jira.issues.size === 1, 70_000, 'the issue made by the create whose answer was lost');
    await eventually(
      async () => (await database.pool.query(`select 1 from tracker_links where external_key = 'CHG-1' and status = 'open'`)).rowCount === 1,
      70_000,
      'the link to the issue Jira made',
    );
    // The link is written while the call is made, the queued call marked sent just after it.
    await eventually(
      async () => (await database.pool.query(`select 1 from tracker_outbox where status <> 'sent'`)).rowCount === 0,
      70_000,
      'the call marked sent',
    );
    expect(jira.issues.size).toBe(1);
    expect(jira.calls.filter((c) => c.method === 'POST' && c.path === '/rest/api/3/issue')).toHaveLength(1);
    const { rows } = await database.pool.query<{ status: string }>(`select status from tracker_outbox`);
    expect(rows).toEqual([{ status: 'sent' }]);

    const stopping = Date.now();
    expect((await api.stop('SIGTERM')).code).toBe(0);
    expect(api.errorLogs(stopping)).toEqual([]);
  }, 240_000);
});

describe('Planner down, an answer lost, then Planner back', () => {
  it('keeps the push while Graph refuses, adopts the task whose create answer was lost, and writes its notes', async () => {
    const database = await createTestDb();
    cleanup(() => database.close());
    const planner: FakePlanner = {
      groups: [{ id: 'grp-it', displayName: 'IT Operations' }],
      plans: [{ id: 'plan-1', title: 'M365 changes', groupId: 'grp-it' }],
      buckets: [{ id: 'bucket-1', name: 'To triage', planId: 'plan-1' }],
      users: [],
      tasks: new Map(),
    };
    const directoryId = '11111111-2222-3333-4444-555555555555';
    const graph = await startTenantGraphServer([
      {
        directoryId,
        clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
        secret: 'tenant-secret',
        messages: [],
        roles: ['ServiceMessage.Read.All', 'Tasks.ReadWrite.All'],
        planner,
      },
    ]);
    cleanup(() => graph.close());
    const api = await startApi({
      DATABASE_URL: database.url,
      GRAPH_AUTHORITY_URL: graph.url,
      GRAPH_API_URL: graph.url,
      TRACKER_RETRY_BASE_MS: '500',
      ROADMAP_V2_URL: 'http://127.0.0.1:9/v2',
      ROADMAP_FEED_URL: 'http://127.0.0.1:9/roadmap',
      ROADMAP_RSS_URL: 'off',
      FEED_RETRIES: '0',
    });
    cleanup(() => api.stop('SIGKILL'));
    await insertMessage(database.db, { externalId: 'MC910002', summary: 'Exchange changes a default.' });
    const cookie = await adminCookie(database.db);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json', origin: api.url },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const tenant = await call('POST', '/api/admin/tenants', {
      name: 'Contoso',
      tenantId: directoryId,
      clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      clientSecret: 'tenant-secret',
    });
    expect(tenant.status).toBe(201);
    const added = await call('POST', '/api/admin/integrations', {
      kind: 'planner',
      name: 'IT board',
      tenantId: ((await tenant.json()) as { id: number }).id,
      groupId: 'grp-it',
      planId: 'plan-1',
      bucketId: 'bucket-1',
    });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: number };

    // Planner is down: the push waits in the outbox and is retried.
    planner.down = true;
    const queued = await call('POST', '/api/triage/message-center/MC910002/tasks', { trackerId: id });
    expect(queued.status).toBe(202);
    await eventually(
      async () => (await database.pool.query(`select 1 from tracker_attempts where outcome = 'retrying'`)).rowCount! >= 2,
      70_000,
      'two failed attempts while Planner is down',
    );

    // Planner is back, but the create's answer is lost: the retry adopts the task instead of making a second.
    planner.down = false;
    planner.cutNextCreate = true;
    await eventually(
      async () => [...planner.tasks.values()].some((t) => t.details.description.includes('Exchange changes a default.')),
      70_000,
      'the notes of the task made by the create whose answer was lost',
    );
    expect(planner.tasks.size).toBe(1);
    expect(graph.requests.filter((r) => r.endsWith('POST /planner/tasks'))).toHaveLength(1);
    await eventually(async () => (await database.pool.query(`select 1 from tracker_outbox where status <> 'sent'`)).rowCount === 0, 70_000, 'every call made');

    const stopping = Date.now();
    expect((await api.stop('SIGTERM')).code).toBe(0);
    expect(api.errorLogs(stopping)).toEqual([]);
  }, 240_000);
});
