import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { startJiraServer, type JiraServer } from '../../../test/tracker-servers.js';
import { createTriageRepo } from '../triage/triage.repo.js';

let t: TestContext | undefined;
const servers: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await t?.close();
  t = undefined;
});

/** A Jira site; a public tenant (Contoso) and a private one (Fabrikam), each with a post only it received. */
async function setUp() {
  const jira = await startJiraServer({ users: ['alice@example.com', 'bob@example.com'] });
  servers.push(jira);
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: '2026-11-26T12:00:00Z' });
  const db = t.database.db;
  const pool = t.database.pool;
  const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'boss@example.com' });
  const { rows: tenants } = await pool.query<{ id: number }>(
    `INSERT INTO tenants (name, directory_id, visibility) VALUES
       ('Contoso', '11111111-0000-4000-8000-000000000000', 'public'), ('Fabrikam', '22222222-0000-4000-8000-000000000000', 'private') RETURNING id`,
  );
  const contoso = Number(tenants[0]?.id);
  const fabrikam = Number(tenants[1]?.id);
  const secret = await insertMessage(db, { externalId: 'MC920001', title: 'Fabrikam-only secret rollout' });
  const open = await insertMessage(db, { externalId: 'MC920002', title: 'Contoso rollout' });
  await pool.query(`INSERT INTO item_tenants (item_id, tenant_id, first_seen_at) VALUES ($1, $2, now()), ($3, $4, now())`, [
    secret.id,
    fabrikam,
    open.id,
    contoso,
  ]);
  await pool.query(`UPDATE items SET tenant_ids = ARRAY[$2::int] WHERE id = $1`, [secret.id, fabrikam]);
  await pool.query(`UPDATE items SET tenant_ids = ARRAY[$2::int] WHERE id = $1`, [open.id, contoso]);
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  const connect = async (extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/admin/integrations').send({
      kind: 'jira',
      name: 'Change board',
      baseUrl: jira.url,
      email: 'bot@contoso.com',
      apiToken: 'jira-token',
      projectKey: 'CHG',
      issueType: 'Task',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  };
  return { t, jira, admin, contoso, fabrikam, connect };
}

const sentTitles = (jira: JiraServer) => JSON.stringify(jira.calls.map((c) => c.body));

describe('tracker pushes respect private tenants', () => {
  it('hides a private tenant’s Planner from a moderator without the grant, and refuses pushes to it like an unknown id', async () => {
    const { t, admin, fabrikam, connect } = await setUp();
    const jiraBoard = await connect();
    const { rows } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO integrations (kind, name, settings) VALUES ('planner', 'Fabrikam IT board', $1) RETURNING id`,
      [JSON.stringify({ tenantId: fabrikam, groupId: 'g', planId: 'p', bucketId: 'b' })],
    );
    const planner = Number(rows[0]?.id);
    const { agent: moderator } = await signIn(t.app, t.database.db, { roles: ['Moderator'], email: 'mod@example.com' });
    const names = async (agent: typeof admin) => ((await agent.get('/api/triage/trackers')).body.targets as { name: string }[]).map((x) => x.name);
    expect(await names(admin)).toEqual(['Change board', 'Fabrikam IT board']);
    expect(await names(moderator)).toEqual(['Change board']);
    expect(JSON.stringify((await moderator.get('/api/triage/message-center/MC920002/tasks')).body)).not.toContain('Fabrikam');
    const unknown = await moderator.post('/api/triage/bulk-tasks').send({ trackerId: 999999, items: [{ itemType: 'message-center', itemId: 'MC920002' }] });
    const hidden = await moderator.post('/api/triage/bulk-tasks').send({ trackerId: planner, items: [{ itemType: 'message-center', itemId: 'MC920002' }] });
    expect(hidden.status).toBe(400);
    expect(hidden.body.error.issues).toEqual(unknown.body.error.issues);
    const single = await moderator.post('/api/triage/message-center/MC920002/tasks').send({ trackerId: planner });
    expect(single.status).toBe(400);
    expect(single.body.error.issues[0].path).toBe('trackerId');
    // The same moderator with the grant sees and may use it.
    await t.database.pool.query(`INSERT INTO tenant_access (tenant_id, user_id) SELECT $1, id FROM users WHERE email = 'mod@example.com'`, [fabrikam]);
    expect(await names(moderator)).toEqual(['Change board', 'Fabrikam IT board']);
    expect(jiraBoard.id).toBeGreaterThan(0);
  });

  it('refuses to push a private tenant’s post to a tracker not set to carry it, naming trackerId, and calls nobody', async () => {
    const { jira, admin, connect } = await setUp();
    const tracker = await connect();
    const res = await admin.post('/api/triage/message-center/MC920001/tasks').send({ trackerId: tracker.id });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('trackerId');
    expect(res.body.error.message).toMatch(/private tenant Fabrikam/);
    expect(sentTitles(jira)).not.toContain('Fabrikam-only');
    expect((await admin.get('/api/triage/message-center/MC920001/tasks')).body.targets).toEqual([]);
    expect((await admin.get('/api/triage/message-center/MC920002/tasks')).body.targets).toEqual([expect.objectContaining({ id: tracker.id })]);
    expect((await admin.post('/api/triage/message-center/MC920002/tasks').send({ trackerId: tracker.id })).status).toBe(201);
  });

  it('pushes a private tenant’s post to a tracker an admin gave that tenant', async () => {
    const { jira, admin, fabrikam, connect } = await setUp();
    const tracker = await connect({ privateTenantIds: [fabrikam] });
    expect((await admin.get('/api/triage/message-center/MC920001/tasks')).body.targets).toEqual([expect.objectContaining({ id: tracker.id })]);
    const res = await admin.post('/api/triage/message-center/MC920001/tasks').send({ trackerId: tracker.id });
    expect(res.status).toBe(201);
    expect(jira.issues.get('CHG-1')?.fields.summary).toBe('MC920001: Fabrikam-only secret rollout');
  });

  it('stops an update waiting for a tracker whose private tenants no longer include the post’s', async () => {
    const { jira, admin, fabrikam, connect } = await setUp();
    const tracker = await connect({ privateTenantIds: [fabrikam] });
    expect((await admin.post('/api/triage/message-center/MC920001/tasks').send({ trackerId: tracker.id })).status).toBe(201);
    expect((await admin.put(`/api/admin/integrations/${tracker.id}`).send({ settings: { privateTenantIds: [] } })).status).toBe(200);
    const calls = jira.calls.length;
    expect((await admin.put('/api/triage/message-center/MC920001').send({ priority: 'high' })).status).toBe(200);
    await t?.ctx.services.trackers.deliverNow();
    expect(jira.calls.slice(calls)).toEqual([]);
    const tasks = await admin.get('/api/triage/message-center/MC920001/tasks');
    expect(tasks.body.tasks[0]).toMatchObject({ lastError: expect.stringMatching(/private tenant Fabrikam/) });
  });

  it('does not make a tracker assignee who may not see the private tenant the record’s owner', async () => {
    const { t, jira, admin, fabrikam, connect } = await setUp();
    await signIn(t.app, t.database.db, { email: 'bob@example.com' });
    const tracker = await connect({ privateTenantIds: [fabrikam] });
    expect((await admin.post('/api/triage/message-center/MC920001/tasks').send({ trackerId: tracker.id })).status).toBe(201);
    jira.assign('CHG-1', 'bob@example.com');
    expect((await admin.post(`/api/admin/integrations/${tracker.id}/pull`)).status).toBe(200);
    expect((await admin.get('/api/triage/message-center/MC920001')).body.ownerId).toBeNull();
    const { rows } = await t.database.pool.query<{ details: { conflicts?: { dropped: string }[] } }>(
      `SELECT details FROM moderator_activities WHERE item_id = 'MC920001' ORDER BY id`,
    );
    expect(rows.at(-1)?.details.conflicts).toEqual([expect.objectContaining({ field: 'owner', dropped: 'bob@example.com' })]);
  });

  it('refuses a private tenant list naming a tenant that does not exist', async () => {
    const { admin, jira } = await setUp();
    const res = await admin.post('/api/admin/integrations').send({
      kind: 'jira',
      name: 'Change board',
      baseUrl: jira.url,
      email: 'bot@contoso.com',
      apiToken: 'jira-token',
      projectKey: 'CHG',
      issueType: 'Task',
      privateTenantIds: [9999],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('privateTenantIds');
  });

  it('lets a rule push only the posts its tracker may carry, and logs why it left the others', async () => {
    const { t, jira, admin, connect } = await setUp();
    const tracker = await connect();
    const rule = await admin
      .post('/api/triage-rules')
      .send({ name: 'Everything to Jira', enabled: true, query: {}, setOwnerId: null, setState: null, setPriority: null, createTaskIn: tracker.id });
    expect(rule.status).toBe(201);
    expect((await admin.post('/api/triage-rules/run')).status).toBe(200);
    await t.ctx.services.trackers.deliverNow();
    expect([...jira.issues.values()].map((i) => i.fields.summary)).toEqual(['MC920002: Contoso rollout']);
    const { rows } = await t.database.pool.query<{ details: { notes?: string[] } }>(
      `SELECT details FROM moderator_activities WHERE item_id = 'MC920001' ORDER BY id`,
    );
    expect(rows.at(-1)?.details.notes?.[0]).toMatch(/not set to carry posts of the private tenant Fabrikam/);
  });
});
