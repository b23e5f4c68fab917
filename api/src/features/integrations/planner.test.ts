import { afterEach, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant } from '../../../test/tenant-fixtures.js';
import { startTenantGraphServer, type FakePlanner, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { createTriageRepo } from '../triage/triage.repo.js';
import { createIntegrationsRepo } from './integrations.repo.js';

const DIRECTORY = '11111111-2222-3333-4444-555555555555';
const CLIENT = 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee';
const WRITE_ROLES = ['ServiceMessage.Read.All', 'Tasks.ReadWrite.All', 'User.Read.All', 'Group.Read.All'];

let t: TestContext | undefined;
const servers: TenantGraphServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await t?.close();
  t = undefined;
});

function fakePlanner(): FakePlanner {
  return {
    groups: [
      { id: 'grp-it', displayName: 'IT Operations' },
      { id: 'grp-hr', displayName: 'Human Resources' },
    ],
    plans: [
      { id: 'plan-changes', title: 'M365 changes', groupId: 'grp-it' },
      { id: 'plan-other', title: 'Hiring', groupId: 'grp-hr' },
    ],
    buckets: [
      { id: 'bucket-new', name: 'To triage', planId: 'plan-changes' },
      { id: 'bucket-done', name: 'Done', planId: 'plan-changes' },
      { id: 'bucket-hr', name: 'Candidates', planId: 'plan-other' },
    ],
    users: [
      { id: 'user-alice', displayName: 'Alice Admin', mail: 'alice@example.com' },
      { id: 'user-bob', displayName: 'Bob Builder', mail: 'bob@example.com' },
    ],
    tasks: new Map(),
  };
}

/** A tenant connected with its app, a Graph with its Planner beside it, two posts with their triage records. */
async function setUp(roles = WRITE_ROLES) {
  const planner = fakePlanner();
  const tenant: FakeTenant = {
    directoryId: DIRECTORY,
    clientId: CLIENT,
    secret: 'tenant-secret',
    messages: [],
    roles,
    planner,
    delegated: { user: { displayName: 'Dana Delegate', mail: 'dana@contoso.com' } },
  };
  const graph = await startTenantGraphServer([tenant]);
  servers.push(graph);
  t = await createTestContext({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '0' }, { now: '2026-11-26T12:00:00Z' });
  const db = t.database.db;
  const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'boss@example.com' });
  const { user: mod, agent: moderator } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
  const alice = await signIn(t.app, db, { email: 'alice@example.com', firstName: 'Alice', lastName: 'Admin' });
  const bob = await signIn(t.app, db, { email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder' });
  const added = await admin.post('/api/admin/tenants').send({ name: 'Contoso', tenantId: DIRECTORY, clientId: CLIENT, clientSecret: 'tenant-secret' });
  expect(added.status).toBe(201);
  // The tenant is private (the default): its Planner takes pushes from people given the tenant.
  await grantTenant(db, mod.id, added.body.id as number);
  await insertMessage(db, {
    externalId: 'MC900001',
    title: 'Exchange retires basic auth',
    isMajorChange: true,
    actionRequiredBy: new Date('2026-12-15T00:00:00Z'),
    summary: 'Exchange Online turns off basic authentication for SMTP AUTH.',
  });
  await insertMessage(db, { externalId: 'MC900002' });
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  return { t, graph, planner, admin, moderator, alice, bob, tenantId: added.body.id as number };
}

const plannerBody = (tenantId: number, extra: Record<string, unknown> = {}) => ({
  kind: 'planner',
  name: 'IT changes board',
  tenantId,
  groupId: 'grp-it',
  planId: 'plan-changes',
  bucketId: 'bucket-new',
  planName: 'M365 changes',
  bucketName: 'To triage',
  ...extra,
});

async function connect(admin: request.Agent, tenantId: number) {
  const res = await admin.post('/api/admin/integrations').send(plannerBody(tenantId));
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

describe('integrations: Microsoft Planner', () => {
  it('lists groups, plans and buckets through the tenant app, connects a plan, and says on Test what is missing', async () => {
    const { admin, moderator, tenantId, graph } = await setUp();
    expect((await moderator.get(`/api/admin/integrations/planner-options?tenantId=${tenantId}`)).status).toBe(403);
    expect((await admin.get('/api/admin/integrations/planner-options?tenantId=999')).body.error.message).toMatch(/tenantId: no tenant/);
    expect((await admin.get(`/api/admin/integrations/planner-options?tenantId=${tenantId}&groupId=a%20b`)).body.error.message).toMatch(/groupId/);

    const groups = await admin.get(`/api/admin/integrations/planner-options?tenantId=${tenantId}`);
    expect(groups.body).toEqual({
      groups: [
        { id: 'grp-hr', name: 'Human Resources' },
        { id: 'grp-it', name: 'IT Operations' },
      ],
      plans: [],
      buckets: [],
      problem: null,
    });
    const buckets = await admin.get(`/api/admin/integrations/planner-options?tenantId=${tenantId}&groupId=grp-it&planId=plan-changes`);
    expect(buckets.body.plans).toEqual([{ id: 'plan-changes', name: 'M365 changes' }]);
    expect(buckets.body.buckets).toEqual([
      { id: 'bucket-new', name: 'To triage' },
      { id: 'bucket-done', name: 'Done' },
    ]);

    // No secret of its own; a Jira token or ServiceNow password is refused naming the field.
    expect((await admin.post('/api/admin/integrations').send(plannerBody(999))).body.error.issues[0].path).toBe('tenantId');
    expect((await admin.post('/api/admin/integrations').send(plannerBody(tenantId, { bucketId: '' }))).body.error.message).toMatch(/bucketId/);
    expect((await admin.post('/api/admin/integrations').send(plannerBody(tenantId, { priorities: { high: '12', medium: '5', low: '9' } }))).status).toBe(400);
    const created = await admin.post('/api/admin/integrations').send(plannerBody(tenantId));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'planner', hasSecret: true, settings: { planId: 'plan-changes', bucketId: 'bucket-new', tenantId } });
    const token = await admin.put(`/api/admin/integrations/${created.body.id}`).send({ apiToken: 'x' });
    expect(token.status).toBe(400);
    expect(token.body.error.message).toMatch(/takes no secret/);

    const test = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(test.body).toMatchObject({ ok: true, message: 'Connected: every check passed' });
    expect(test.body.checks.map((c: { name: string }) => c.name)).toEqual(['Sign-in', 'Permission', 'Plan', 'Bucket', 'Assignment']);

    // A bucket of another plan is caught.
    await admin.put(`/api/admin/integrations/${created.body.id}`).send({ settings: { bucketId: 'bucket-hr' } });
    const wrongBucket = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(wrongBucket.body.checks.find((c: { name: string }) => c.name === 'Bucket')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/another plan/),
    });

    // Without the write permission Test says which one to grant, and that the app (not a user) writes.
    graph.tenants.get(DIRECTORY)!.roles = ['ServiceMessage.Read.All', 'Tasks.Read.All'];
    const readOnly = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(readOnly.body.ok).toBe(false);
    expect(readOnly.body.checks[1]).toMatchObject({
      name: 'Permission',
      ok: false,
      message: expect.stringMatching(/Tasks\.ReadWrite\.All \(it has Tasks\.Read\.All/),
    });
    expect(readOnly.body.checks.at(-1)).toMatchObject({ name: 'Assignment', ok: false });
    const noGroups = await admin.get(`/api/admin/integrations/planner-options?tenantId=${tenantId}&groupId=grp-it`);
    expect(noGroups.body).toMatchObject({ groups: [], plans: [{ id: 'plan-changes' }], problem: expect.stringMatching(/Group\.Read\.All/) });

    // A revoked secret: the sign-in check says so.
    graph.tenants.get(DIRECTORY)!.revoked = true;
    const revoked = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(revoked.body.checks).toEqual([{ name: 'Sign-in', ok: false, message: expect.stringMatching(/AADSTS7000215/) }]);
  });

  it('creates one task with notes, link back and assignee, updates it, appends changes, and reads completion back', async () => {
    const { t, graph, planner, admin, moderator, alice, tenantId } = await setUp();
    const integration = await connect(admin, tenantId);
    await moderator.put('/api/triage/message-center/MC900001').send({ ownerId: alice.user.id });

    const first = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: integration.id });
    expect(first.status).toBe(201);
    expect(planner.tasks.size).toBe(1);
    const task = [...planner.tasks.values()][0]!;
    expect(first.body).toMatchObject({
      kind: 'planner',
      status: 'open',
      key: 'MC900001: Exchange retires basic auth',
      remoteState: 'Not started',
      url: `https://tasks.office.com/${DIRECTORY}/Home/Task/${task.id}`,
    });
    expect(task).toMatchObject({ planId: 'plan-changes', bucketId: 'bucket-new', dueDateTime: '2026-12-15T12:00:00Z', priority: 3 });
    expect(Object.keys(task.assignments)).toEqual(['user-alice']);
    expect(task.details.description).toContain('Exchange Online turns off basic authentication');
    const reference = Object.keys(task.details.references)[0]!;
    expect(reference).toMatch(/^http%3A\/\/localhost%3A8080\/message\/MC900001\?radarTask=/);
    expect(task.details.references[reference]).toMatchObject({ alias: 'Open in M365 Radar' });

    // A second push updates the same task (the ETag read first); a change of the item is appended to the notes, and
    // the next update keeps it.
    await moderator.put('/api/triage/message-center/MC900001').send({ dueDate: '2026-12-20', priority: 'low' });
    const before = graph.requests.length;
    const second = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: integration.id });
    expect(second.status).toBe(200);
    expect(planner.tasks.size).toBe(1);
    expect(task).toMatchObject({ dueDateTime: '2026-12-20T12:00:00Z', priority: 9 });
    // The task is read once, for its ETag: the PATCH answers the changed task (Prefer: return=representation).
    const taskCalls = graph.requests.slice(before).filter((r) => r.includes(`/planner/tasks/${task.id}`));
    expect(taskCalls.map((r) => r.split(' ').slice(1).join(' '))).toEqual([
      `GET /planner/tasks/${task.id}`,
      `PATCH /planner/tasks/${task.id}`,
      `GET /planner/tasks/${task.id}/details`,
      `PATCH /planner/tasks/${task.id}/details`,
    ]);
    expect(second.body).toMatchObject({ remoteState: 'Not started' });
    const { rows } = await t.database.pool.query<{ id: number }>(`SELECT l.id FROM tracker_links l WHERE l.integration_id = $1`, [integration.id]);
    await createIntegrationsRepo(t.database.db).enqueue({
      integrationId: integration.id,
      linkId: rows[0]!.id,
      action: 'comment',
      text: 'M365 Radar: the item changed.\n- Act by moved to 2027-01-15',
      now: t.clock.now(),
    });
    // Someone edits the task in Planner between our read and write: the write is retried with the new ETag.
    planner.preconditionFailures = 1;
    await t.ctx.services.trackers.deliverNow();
    expect(task.details.description).toMatch(
      /Changes since the task was made —\n2026-11-26 12:00 UTC\nM365 Radar: the item changed\.\n- Act by moved to 2027-01-15/,
    );
    // Someone edits the task itself between the read and the update: the task is read again and the update made.
    planner.preconditionFailures = 1;
    const beforeThird = graph.requests.length;
    await moderator.put('/api/triage/message-center/MC900001').send({ priority: 'medium' });
    expect((await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: integration.id })).status).toBe(200);
    expect(task.priority).toBe(5);
    expect(
      graph.requests
        .slice(beforeThird)
        .filter((r) => r.endsWith(`/planner/tasks/${task.id}`))
        .map((r) => r.split(' ')[1]),
    ).toEqual(['GET', 'PATCH', 'GET', 'PATCH']);
    expect(task.details.description).toContain('Act by moved to 2027-01-15');
    expect(task.details.description.match(/Changes since the task was made/g)).toHaveLength(1);

    // Completed in Planner: Done, said to come from Planner and who completed it; reopened: In progress.
    Object.assign(task, { percentComplete: 100, completedBy: { user: { id: 'user-bob', displayName: null } } });
    const pulled = await admin.post(`/api/admin/integrations/${integration.id}/pull`);
    expect(pulled.body).toMatchObject({ read: 1, changed: 1 });
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.state).toBe('done');
    const { rows: log } = await t.database.pool.query<{ user_email: string; details: Record<string, unknown> }>(
      `SELECT user_email, details FROM moderator_activities WHERE action_type = 'triage_changed' ORDER BY id DESC LIMIT 1`,
    );
    expect(log[0]).toMatchObject({ user_email: 'Microsoft Planner (IT changes board)', details: { source: 'closed in Microsoft Planner by Bob Builder' } });
    Object.assign(task, { percentComplete: 50, completedBy: null });
    await admin.post(`/api/admin/integrations/${integration.id}/pull`);
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.state).toBe('in_progress');

    // Reassigned in Planner: the owner follows.
    task.assignments = { 'user-bob': {} };
    await admin.post(`/api/admin/integrations/${integration.id}/pull`);
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.owner).toMatchObject({ email: 'bob@example.com' });

    // Deleted in Planner: said so.
    planner.tasks.clear();
    expect((await admin.post(`/api/admin/integrations/${integration.id}/pull`)).body).toMatchObject({ read: 1, missing: 1 });
  });

  it('never makes a second task: throttled calls wait for Retry-After, and a create whose notes failed is completed by an update', async () => {
    const { t, planner, admin, moderator, tenantId, graph } = await setUp();
    const integration = await connect(admin, tenantId);

    // Graph throttles: the push is queued, the attempt logged with Graph's Retry-After.
    planner.throttle = { times: 1, retryAfterSeconds: 30 };
    const queued = await moderator.post('/api/triage/message-center/MC900002/tasks').send({ integrationId: integration.id });
    expect(queued.status).toBe(202);
    expect(planner.tasks.size).toBe(0);
    t.clock.advance(31_000);
    await t.ctx.services.trackers.deliverNow();
    expect(planner.tasks.size).toBe(1);

    // The task is made but its notes fail: the create stands (no retry that would make a second task), and the update
    // queued after it writes the notes.
    planner.failDetails = 1;
    const pushed = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: integration.id });
    expect(pushed.status).toBe(201);
    expect(planner.tasks.size).toBe(2);
    const made = [...planner.tasks.values()].find((x) => x.title.startsWith('MC900001'))!;
    await t.ctx.services.trackers.deliverNow();
    expect(planner.tasks.size).toBe(2);
    expect(made.details.description).toContain('Exchange Online turns off basic authentication');

    // A create whose answer was lost: the retry finds the task by the key in its reference, and makes none.
    const { rows } = await t.database.pool.query<{ id: number }>(`SELECT id FROM tracker_links WHERE external_id = $1`, [made.id]);
    await t.database.pool.query(`UPDATE tracker_links SET external_id = NULL, external_key = NULL, status = 'queued' WHERE id = $1`, [rows[0]!.id]);
    await createIntegrationsRepo(t.database.db).enqueue({ integrationId: integration.id, linkId: rows[0]!.id, action: 'create', now: t.clock.now() });
    await t.ctx.services.trackers.deliverNow();
    expect(planner.tasks.size).toBe(2);
    const { rows: again } = await t.database.pool.query<{ external_id: string }>(`SELECT external_id FROM tracker_links WHERE id = $1`, [rows[0]!.id]);
    expect(again[0]?.external_id).toBe(made.id);
    const log = await admin.get(`/api/admin/integrations/${integration.id}/deliveries`);
    expect(log.body.attempts.map((a: { outcome: string; statusCode: number | null }) => [a.outcome, a.statusCode])).toContainEqual(['retrying', 429]);
    expect(log.body.attempts[0].response).toMatch(/made by an earlier attempt/);
    expect(graph.requests.filter((r) => r.endsWith('POST /planner/tasks'))).toHaveLength(2);

    // The answer to a create is cut: Planner made the task, without notes. The retry adopts the task this app made
    // with this title and no reference, and writes its notes: one task, complete.
    await insertMessage(t.database.db, { externalId: 'MC900003', title: 'Teams retires a setting', summary: 'Teams retires a meeting setting.' });
    await createTriageRepo(t.database.db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
    planner.cutNextCreate = true;
    const cut = await moderator.post('/api/triage/message-center/MC900003/tasks').send({ integrationId: integration.id });
    expect(cut.status).toBe(202);
    t.clock.advance(120_000);
    await t.ctx.services.trackers.deliverNow();
    const third = [...planner.tasks.values()].filter((x) => x.title.startsWith('MC900003'));
    expect(third).toHaveLength(1);
    expect(third[0]?.details.description).toContain('Teams retires a meeting setting.');
    expect(Object.keys(third[0]?.details.references ?? {})[0]).toMatch(/radarTask=/);
    expect((await moderator.get('/api/triage/message-center/MC900003/tasks')).body.tasks[0]).toMatchObject({ status: 'open', key: third[0]?.title });
  });

  it('signs in as a user where the tenant grants Planner no application permission: authorize, Test, push as that user', async () => {
    const { planner, admin, moderator, alice, tenantId, graph } = await setUp(['ServiceMessage.Read.All']);
    const created = await admin.post('/api/admin/integrations').send(plannerBody(tenantId, { auth: 'delegated' }));
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(created.body.authorization).toMatchObject({ authorized: false });
    expect((await admin.post(`/api/admin/integrations/${id}/test`)).body.checks[0].message).toBe('Not authorized yet: use Authorize in Admin → Integrations');

    // The tenant's own Entra consent page, asking for the delegated permissions and a refresh token.
    const started = await admin.post(`/api/admin/integrations/${id}/authorize`);
    const consent = new URL(started.body.url as string);
    expect(consent.pathname).toBe(`/${DIRECTORY}/oauth2/v2.0/authorize`);
    expect(consent.searchParams.get('client_id')).toBe(CLIENT);
    expect(consent.searchParams.get('scope')).toBe(`${graph.url}/Tasks.ReadWrite ${graph.url}/User.ReadBasic.All offline_access`);
    const answer = await fetch(consent, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location') ?? '');
    const done = await admin.get(`${back.pathname}${back.search}`);
    expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
    expect((await admin.get('/api/admin/integrations')).body.integrations[0].authorization).toMatchObject({ authorized: true, authorizedBy: 'Dana Delegate' });

    const test = await admin.post(`/api/admin/integrations/${id}/test`);
    expect(test.body).toMatchObject({ ok: true });
    expect(test.body.checks.slice(0, 2)).toEqual([
      { name: 'Sign-in', ok: true, message: 'Signed in to Contoso as Dana Delegate (delegated)' },
      { name: 'Permission', ok: true, message: 'Delegated permission Tasks.ReadWrite is granted: tasks are written as that user' },
    ]);
    await moderator.put('/api/triage/message-center/MC900001').send({ ownerId: alice.user.id });
    const pushed = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ integrationId: id });
    expect(pushed.status).toBe(201);
    expect([...planner.tasks.values()].map((x) => Object.keys(x.assignments))).toEqual([['user-alice']]);

    // An application integration in this tenant is told what to grant, and that signing in as a user is the other way.
    const app = await admin.post('/api/admin/integrations').send(plannerBody(tenantId, { name: 'App board' }));
    const appTest = await admin.post(`/api/admin/integrations/${app.body.id}/test`);
    expect(appTest.body.checks[1].message).toMatch(/lacks the application permission Tasks\.ReadWrite\.All.*or sign in as a user \(delegated\)/);
  });
});
