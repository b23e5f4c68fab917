import { describe, expect, it } from '@jest/globals';
import { createTestDb } from '../db.js';
import { insertMessage } from '../factories.js';
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
    const queued = await call('POST', '/api/triage/message-center/MC910001/tasks', { integrationId: id });
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
    expect(jira.issues.size).toBe(1);
    expect(jira.calls.filter((c) => c.method === 'POST' && c.path === '/rest/api/3/issue')).toHaveLength(1);
    const { rows } = await database.pool.query<{ status: string }>(`select status from tracker_outbox`);
    expect(rows).toEqual([{ status: 'sent' }]);

    const stopping = Date.now();
    expect((await api.stop('SIGTERM')).code).toBe(0);
    expect(api.errorLogs(stopping)).toEqual([]);
  }, 240_000);
});
