import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import type { TestContext } from '../../../test/context.js';
import { insertMessage, seedSession } from '../../../test/factories.js';
import { cookieAgent, seededContext } from '../../../test/seeded-context.js';
import { grantTenant } from '../../../test/tenant-fixtures.js';
import { startTenantGraphServer, type FakePlanner, type FakeTenant, type TenantGraphServer } from '../../../test/tenant-graph-server.js';
import { createTriageRepo } from '../triage/triage.repo.js';
import { createTrackersRepo } from './trackers.repo.js';

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

/** The people (the moderator given the tenant), the tenant with its app, two posts with their triage records. */
const seeded = seededContext(
  async ({ app, database: { db } }) => {
    const { cookie: admin } = await seedSession(db, { roles: ['Admin'], email: 'boss@example.com' });
    const { user: mod, cookie: moderator } = await seedSession(db, { roles: ['Moderator'], email: 'mod@example.com' });
    const alice = await seedSession(db, { email: 'alice@example.com', firstName: 'Alice', lastName: 'Admin' });
    const bob = await seedSession(db, { email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder' });
    const added = await cookieAgent(app, admin)
      .post('/api/admin/tenants')
      .send({ name: 'Contoso', tenantId: DIRECTORY, clientId: CLIENT, clientSecret: 'tenant-secret' });
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
    return { admin, moderator, alice, bob, tenantId: added.body.id as number };
  },
  { now: '2026-11-26T12:00:00Z' },
);

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
  const c = await seeded.context({ GRAPH_AUTHORITY_URL: graph.url, GRAPH_API_URL: graph.url, FEED_RETRIES: '0' }, { now: '2026-11-26T12:00:00Z' });
  t = c;
  const { admin, moderator, alice, bob, tenantId } = c.seeded;
  const signedIn = ({ user, cookie }: typeof alice) => ({ user, agent: cookieAgent(c.app, cookie) });
  return {
    t: c as TestContext,
    graph,
    planner,
    admin: cookieAgent(c.app, admin),
    moderator: cookieAgent(c.app, moderator),
    alice: signedIn(alice),
    bob: signedIn(bob),
    tenantId,
  };
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

type SetUp = Awaited<ReturnType<typeof setUp>>;
type Response = Awaited<ReturnType<request.Agent['get']>>;

describe('trackers: Microsoft Planner', () => {
  describe('the plan options', () => {
    let s: SetUp;
    beforeEach(async () => {
      s = await setUp();
    });
    const options = (query: string, agent = s.admin) => agent.get(`/api/admin/integrations/planner-options?${query}`);

    it('are for admins only', async () => {
      expect((await options(`tenantId=${s.tenantId}`, s.moderator)).status).toBe(403);
    });

    it('are refused for a tenant that does not exist', async () => {
      expect((await options('tenantId=999')).body.error.message).toMatch(/tenantId: no tenant/);
    });

    it('are refused for a group id that cannot be one', async () => {
      expect((await options(`tenantId=${s.tenantId}&groupId=a%20b`)).body.error.message).toMatch(/groupId/);
    });

    it('list the tenant’s groups through its app', async () => {
      const groups = await options(`tenantId=${s.tenantId}`);
      expect(groups.body).toEqual({
        groups: [
          { id: 'grp-hr', name: 'Human Resources' },
          { id: 'grp-it', name: 'IT Operations' },
        ],
        plans: [],
        buckets: [],
        problem: null,
      });
    });

    it('list a group’s plans and a plan’s buckets', async () => {
      const buckets = await options(`tenantId=${s.tenantId}&groupId=grp-it&planId=plan-changes`);
      expect(buckets.body.plans).toEqual([{ id: 'plan-changes', name: 'M365 changes' }]);
      expect(buckets.body.buckets).toEqual([
        { id: 'bucket-new', name: 'To triage' },
        { id: 'bucket-done', name: 'Done' },
      ]);
    });
  });

  describe('connecting a plan', () => {
    let s: SetUp;
    beforeEach(async () => {
      s = await setUp();
    });
    const create = (extra: Record<string, unknown> = {}, tenantId = s.tenantId) => s.admin.post('/api/admin/integrations').send(plannerBody(tenantId, extra));

    it('refuses a tenant that does not exist, naming tenantId', async () => {
      expect((await create({}, 999)).body.error.issues[0].path).toBe('tenantId');
    });

    it('refuses a plan without a bucket, naming bucketId', async () => {
      expect((await create({ bucketId: '' })).body.error.message).toMatch(/bucketId/);
    });

    it('refuses priorities Planner does not have', async () => {
      expect((await create({ priorities: { high: '12', medium: '5', low: '9' } })).status).toBe(400);
    });

    it('connects a plan with no secret of its own: the tenant’s app signs in', async () => {
      const created = await create();
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        kind: 'planner',
        hasSecret: true,
        settings: { planId: 'plan-changes', bucketId: 'bucket-new', tenantId: s.tenantId },
      });
    });

    it('refuses a Jira token or ServiceNow password for it, naming the field', async () => {
      const created = await create();
      const token = await s.admin.put(`/api/admin/integrations/${created.body.id}`).send({ apiToken: 'x' });
      expect(token.status).toBe(400);
      expect(token.body.error.message).toMatch(/takes no secret/);
    });
  });

  describe('Test of a connected plan', () => {
    let s: SetUp;
    let id: number;
    beforeEach(async () => {
      s = await setUp();
      ({ id } = await connect(s.admin, s.tenantId));
    });
    const test = () => s.admin.post(`/api/admin/integrations/${id}/test`);
    const appMayOnlyRead = () => {
      s.graph.tenants.get(DIRECTORY)!.roles = ['ServiceMessage.Read.All', 'Tasks.Read.All'];
    };

    it('passes every check when the app may write to the plan', async () => {
      const passed = await test();
      expect(passed.body).toMatchObject({ ok: true, message: 'Connected: every check passed' });
      expect(passed.body.checks.map((c: { name: string }) => c.name)).toEqual(['Sign-in', 'Permission', 'Plan', 'Bucket', 'Assignment']);
    });

    it('catches a bucket of another plan', async () => {
      await s.admin.put(`/api/admin/integrations/${id}`).send({ settings: { bucketId: 'bucket-hr' } });
      const wrongBucket = await test();
      expect(wrongBucket.body.checks.find((c: { name: string }) => c.name === 'Bucket')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/another plan/),
      });
    });

    it('says which write permission to grant, and that the app (not a user) writes', async () => {
      appMayOnlyRead();
      const readOnly = await test();
      expect(readOnly.body.ok).toBe(false);
      expect(readOnly.body.checks[1]).toMatchObject({
        name: 'Permission',
        ok: false,
        message: expect.stringMatching(/Tasks\.ReadWrite\.All \(it has Tasks\.Read\.All/),
      });
      expect(readOnly.body.checks.at(-1)).toMatchObject({ name: 'Assignment', ok: false });
    });

    it('still lists a group’s plans without Group.Read.All, saying the groups need it', async () => {
      appMayOnlyRead();
      const noGroups = await s.admin.get(`/api/admin/integrations/planner-options?tenantId=${s.tenantId}&groupId=grp-it`);
      expect(noGroups.body).toMatchObject({ groups: [], plans: [{ id: 'plan-changes' }], problem: expect.stringMatching(/Group\.Read\.All/) });
    });

    it('says a revoked secret fails the sign-in, and checks nothing after it', async () => {
      s.graph.tenants.get(DIRECTORY)!.revoked = true;
      const revoked = await test();
      expect(revoked.body.checks).toEqual([{ name: 'Sign-in', ok: false, message: expect.stringMatching(/AADSTS7000215/) }]);
    });
  });

  describe('a task for a post given to Alice', () => {
    let s: SetUp;
    let tracker: { id: number };
    beforeEach(async () => {
      s = await setUp();
      tracker = await connect(s.admin, s.tenantId);
      await s.moderator.put('/api/triage/message-center/MC900001').send({ ownerId: s.alice.user.id });
    });
    const push = () => s.moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    const theTask = () => [...s.planner.tasks.values()][0]!;
    /**
     * The first push, then a change of the item queued for the task's notes and delivered; `editedInBetween`: someone
     * edits the task in Planner between our read and write, so the write's ETag is refused once.
     */
    const pushedThenItemChanged = async ({ editedInBetween }: { editedInBetween: boolean }) => {
      await push();
      const { rows } = await s.t.database.pool.query<{ id: number }>(`SELECT l.id FROM tracker_links l WHERE l.integration_id = $1`, [tracker.id]);
      await createTrackersRepo(s.t.database.db).enqueue({
        trackerId: tracker.id,
        linkId: rows[0]!.id,
        action: 'comment',
        text: 'M365 Radar: the item changed.\n- Act by moved to 2027-01-15',
        now: s.t.clock.now(),
      });
      if (editedInBetween) s.planner.preconditionFailures = 1;
      await s.t.ctx.services.trackers.deliverNow();
    };
    const pull = () => s.admin.post(`/api/admin/integrations/${tracker.id}/pull`);
    const state = async () => (await s.alice.agent.get('/api/triage/message-center/MC900001')).body.state;
    const completedByBob = () => Object.assign(theTask(), { percentComplete: 100, completedBy: { user: { id: 'user-bob', displayName: null } } });

    it('is made once, in the plan’s bucket, with the item’s due date and priority and its owner assigned', async () => {
      const first = await push();
      expect(first.status).toBe(201);
      expect(s.planner.tasks.size).toBe(1);
      const task = theTask();
      expect(first.body).toMatchObject({
        kind: 'planner',
        status: 'open',
        key: 'MC900001: Exchange retires basic auth',
        remoteState: 'Not started',
        url: `https://tasks.office.com/${DIRECTORY}/Home/Task/${task.id}`,
      });
      expect(task).toMatchObject({ planId: 'plan-changes', bucketId: 'bucket-new', dueDateTime: '2026-12-15T12:00:00Z', priority: 3 });
      expect(Object.keys(task.assignments)).toEqual(['user-alice']);
    });

    it('carries the item’s summary in its notes and a link back to the item', async () => {
      await push();
      const task = theTask();
      expect(task.details.description).toContain('Exchange Online turns off basic authentication');
      const reference = Object.keys(task.details.references)[0]!;
      expect(reference).toMatch(/^http%3A\/\/localhost%3A8080\/message\/MC900001\?radarTask=/);
      expect(task.details.references[reference]).toMatchObject({ alias: 'Open in M365 Radar' });
    });

    it('is updated by a second push, read once for its ETag (the PATCH answers the changed task)', async () => {
      await push();
      const task = theTask();
      await s.moderator.put('/api/triage/message-center/MC900001').send({ dueDate: '2026-12-20', priority: 'low' });
      const before = s.graph.requests.length;
      const second = await push();
      expect(second.status).toBe(200);
      expect(s.planner.tasks.size).toBe(1);
      expect(task).toMatchObject({ dueDateTime: '2026-12-20T12:00:00Z', priority: 9 });
      const taskCalls = s.graph.requests.slice(before).filter((r) => r.includes(`/planner/tasks/${task.id}`));
      expect(taskCalls.map((r) => r.split(' ').slice(1).join(' '))).toEqual([
        `GET /planner/tasks/${task.id}`,
        `PATCH /planner/tasks/${task.id}`,
        `GET /planner/tasks/${task.id}/details`,
        `PATCH /planner/tasks/${task.id}/details`,
      ]);
      expect(second.body).toMatchObject({ remoteState: 'Not started' });
    });

    it('gets a change of the item appended to its notes, retried with the new ETag when the notes changed in between', async () => {
      await pushedThenItemChanged({ editedInBetween: true });
      expect(theTask().details.description).toMatch(
        /Changes since the task was made —\n2026-11-26 12:00 UTC\nM365 Radar: the item changed\.\n- Act by moved to 2027-01-15/,
      );
    });

    it('is read again and updated when it changed between the read and the update, keeping the appended notes', async () => {
      await pushedThenItemChanged({ editedInBetween: true });
      const task = theTask();
      // Someone edits the task itself between the read and the update: the task is read again and the update made.
      s.planner.preconditionFailures = 1;
      const beforeThird = s.graph.requests.length;
      await s.moderator.put('/api/triage/message-center/MC900001').send({ priority: 'medium' });
      expect((await push()).status).toBe(200);
      expect(task.priority).toBe(5);
      expect(
        s.graph.requests
          .slice(beforeThird)
          .filter((r) => r.endsWith(`/planner/tasks/${task.id}`))
          .map((r) => r.split(' ')[1]),
      ).toEqual(['GET', 'PATCH', 'GET', 'PATCH']);
      expect(task.details.description).toContain('Act by moved to 2027-01-15');
      expect(task.details.description.match(/Changes since the task was made/g)).toHaveLength(1);
    });

    it('completed in Planner makes the record Done, logged as Planner’s and naming who completed it', async () => {
      await push();
      completedByBob();
      const pulled = await pull();
      expect(pulled.body).toMatchObject({ read: 1, changed: 1 });
      expect(await state()).toBe('done');
      const { rows: log } = await s.t.database.pool.query<{ user_email: string; details: Record<string, unknown> }>(
        `SELECT user_email, details FROM moderator_activities WHERE action_type = 'triage_changed' ORDER BY id DESC LIMIT 1`,
      );
      expect(log[0]).toMatchObject({ user_email: 'Microsoft Planner (IT changes board)', details: { source: 'closed in Microsoft Planner by Bob Builder' } });
    });

    /** Pushed, completed in Planner and read, then reopened there and read again. */
    const completedThenReopened = async () => {
      await push();
      completedByBob();
      await pull();
      Object.assign(theTask(), { percentComplete: 50, completedBy: null });
      await pull();
    };

    it('reopened in Planner makes the record In progress', async () => {
      await completedThenReopened();
      expect(await state()).toBe('in_progress');
    });

    it('reassigned in Planner since the last read gives the record to its new assignee', async () => {
      // Read before: with no read since the record changed here, both sides changed and the later change would win.
      await completedThenReopened();
      theTask().assignments = { 'user-bob': {} };
      await pull();
      expect((await s.alice.agent.get('/api/triage/message-center/MC900001')).body.owner).toMatchObject({ email: 'bob@example.com' });
    });

    it('deleted in Planner is counted missing', async () => {
      await push();
      s.planner.tasks.clear();
      expect((await pull()).body).toMatchObject({ read: 1, missing: 1 });
    });
  });

  describe('never a second task', () => {
    let s: SetUp;
    let tracker: { id: number };
    beforeEach(async () => {
      s = await setUp();
      tracker = await connect(s.admin, s.tenantId);
    });
    const push = (externalId: string) => s.moderator.post(`/api/triage/message-center/${externalId}/tasks`).send({ trackerId: tracker.id });
    /** Graph throttles the first push of MC900002 once, for 30 seconds; it is delivered after. */
    const throttledThenMade = async () => {
      s.planner.throttle = { times: 1, retryAfterSeconds: 30 };
      const queued = await push('MC900002');
      s.t.clock.advance(31_000);
      await s.t.ctx.services.trackers.deliverNow();
      return queued;
    };
    /** MC900001's task is made but its notes fail; the update queued after it is delivered. */
    const notesFailedThenUpdated = async () => {
      s.planner.failDetails = 1;
      const pushed = await push('MC900001');
      const made = [...s.planner.tasks.values()].find((x) => x.title.startsWith('MC900001'))!;
      await s.t.ctx.services.trackers.deliverNow();
      return { pushed, made };
    };
    /** The answer to MC900001's create was lost: its link is queued for a create again, and delivered. */
    const createAnswerLost = async (made: { id: string }) => {
      const { rows } = await s.t.database.pool.query<{ id: number }>(`SELECT id FROM tracker_links WHERE external_id = $1`, [made.id]);
      await s.t.database.pool.query(`UPDATE tracker_links SET external_id = NULL, external_key = NULL, status = 'queued' WHERE id = $1`, [rows[0]!.id]);
      await createTrackersRepo(s.t.database.db).enqueue({ trackerId: tracker.id, linkId: rows[0]!.id, action: 'create', now: s.t.clock.now() });
      await s.t.ctx.services.trackers.deliverNow();
      return rows[0]!.id;
    };
    const deliveries = async () => (await s.admin.get(`/api/admin/integrations/${tracker.id}/deliveries`)).body;

    it('queues a push Graph throttles, and makes the task once its Retry-After has passed', async () => {
      s.planner.throttle = { times: 1, retryAfterSeconds: 30 };
      const queued = await push('MC900002');
      expect(queued.status).toBe(202);
      expect(s.planner.tasks.size).toBe(0);
      s.t.clock.advance(31_000);
      await s.t.ctx.services.trackers.deliverNow();
      expect(s.planner.tasks.size).toBe(1);
    });

    it('logs the throttled attempt as retrying, with Graph’s 429', async () => {
      await throttledThenMade();
      const log = await deliveries();
      expect(log.attempts.map((a: { outcome: string; statusCode: number | null }) => [a.outcome, a.statusCode])).toContainEqual(['retrying', 429]);
    });

    it('keeps a create whose notes failed (no retry that would make a second task), and the update after it writes them', async () => {
      await throttledThenMade();
      s.planner.failDetails = 1;
      const pushed = await push('MC900001');
      expect(pushed.status).toBe(201);
      expect(s.planner.tasks.size).toBe(2);
      const made = [...s.planner.tasks.values()].find((x) => x.title.startsWith('MC900001'))!;
      await s.t.ctx.services.trackers.deliverNow();
      expect(s.planner.tasks.size).toBe(2);
      expect(made.details.description).toContain('Exchange Online turns off basic authentication');
    });

    it('finds the task of a create whose answer was lost by the key in its reference, and makes none', async () => {
      await throttledThenMade();
      const { made } = await notesFailedThenUpdated();
      const linkId = await createAnswerLost(made);
      expect(s.planner.tasks.size).toBe(2);
      const { rows: again } = await s.t.database.pool.query<{ external_id: string }>(`SELECT external_id FROM tracker_links WHERE id = $1`, [linkId]);
      expect(again[0]?.external_id).toBe(made.id);
      expect((await deliveries()).attempts[0].response).toMatch(/made by an earlier attempt/);
      expect(s.graph.requests.filter((r) => r.endsWith('POST /planner/tasks'))).toHaveLength(2);
    });

    it('adopts the task a cut create made (this app’s, this title, no reference) and writes its notes: one task, complete', async () => {
      await throttledThenMade();
      const { made } = await notesFailedThenUpdated();
      await createAnswerLost(made);
      await insertMessage(s.t.database.db, { externalId: 'MC900003', title: 'Teams retires a setting', summary: 'Teams retires a meeting setting.' });
      await createTriageRepo(s.t.database.db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
      s.planner.cutNextCreate = true;
      const cut = await push('MC900003');
      expect(cut.status).toBe(202);
      s.t.clock.advance(120_000);
      await s.t.ctx.services.trackers.deliverNow();
      const third = [...s.planner.tasks.values()].filter((x) => x.title.startsWith('MC900003'));
      expect(third).toHaveLength(1);
      expect(third[0]?.details.description).toContain('Teams retires a meeting setting.');
      expect(Object.keys(third[0]?.details.references ?? {})[0]).toMatch(/radarTask=/);
      expect((await s.moderator.get('/api/triage/message-center/MC900003/tasks')).body.tasks[0]).toMatchObject({ status: 'open', key: third[0]?.title });
    });
  });

  describe('signed in as a user, where the tenant grants Planner no application permission', () => {
    let s: SetUp;
    let id: number;
    let created: Response;
    beforeEach(async () => {
      s = await setUp(['ServiceMessage.Read.All']);
      created = await s.admin.post('/api/admin/integrations').send(plannerBody(s.tenantId, { auth: 'delegated' }));
      id = created.body.id as number;
    });
    const startAuthorize = async () => new URL((await s.admin.post(`/api/admin/integrations/${id}/authorize`)).body.url as string);
    /** The consent page answers at once (the fake tenant consents as Dana); the browser comes back to the callback. */
    const consentAndComeBack = async () => {
      const answer = await fetch(await startAuthorize(), { redirect: 'manual' });
      const back = new URL(answer.headers.get('location') ?? '');
      return s.admin.get(`${back.pathname}${back.search}`);
    };

    it('is connected unauthorized, and Test says to authorize', async () => {
      expect(created.status).toBe(201);
      expect(created.body.authorization).toMatchObject({ authorized: false });
      expect((await s.admin.post(`/api/admin/integrations/${id}/test`)).body.checks[0].message).toBe('Not authorized yet: use Authorize in Admin → Trackers');
    });

    it('authorizes on the tenant’s own Entra consent page, for the delegated permissions and a refresh token', async () => {
      const consent = await startAuthorize();
      expect(consent.pathname).toBe(`/${DIRECTORY}/oauth2/v2.0/authorize`);
      expect(consent.searchParams.get('client_id')).toBe(CLIENT);
      expect(consent.searchParams.get('scope')).toBe(`${s.graph.url}/Tasks.ReadWrite ${s.graph.url}/User.ReadBasic.All offline_access`);
    });

    it('comes back from consent authorized as that user', async () => {
      const done = await consentAndComeBack();
      expect(done.headers.location).toBe(`/admin?tab=integrations&authorized=${id}`);
      expect((await s.admin.get('/api/admin/integrations')).body.trackers[0].authorization).toMatchObject({
        authorized: true,
        authorizedBy: 'Dana Delegate',
      });
    });

    it('passes Test signed in as that user, with the delegated permission', async () => {
      await consentAndComeBack();
      const test = await s.admin.post(`/api/admin/integrations/${id}/test`);
      expect(test.body).toMatchObject({ ok: true });
      expect(test.body.checks.slice(0, 2)).toEqual([
        { name: 'Sign-in', ok: true, message: 'Signed in to Contoso as Dana Delegate (delegated)' },
        { name: 'Permission', ok: true, message: 'Delegated permission Tasks.ReadWrite is granted: tasks are written as that user' },
      ]);
    });

    it('pushes tasks as that user, assigned to the record’s owner', async () => {
      await consentAndComeBack();
      await s.moderator.put('/api/triage/message-center/MC900001').send({ ownerId: s.alice.user.id });
      const pushed = await s.moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: id });
      expect(pushed.status).toBe(201);
      expect([...s.planner.tasks.values()].map((x) => Object.keys(x.assignments))).toEqual([['user-alice']]);
    });

    it('tells an application tracker in that tenant what to grant, or to sign in as a user instead', async () => {
      const app = await s.admin.post('/api/admin/integrations').send(plannerBody(s.tenantId, { name: 'App board' }));
      const appTest = await s.admin.post(`/api/admin/integrations/${app.body.id}/test`);
      expect(appTest.body.checks[1].message).toMatch(/lacks the application permission Tasks\.ReadWrite\.All.*or sign in as a user \(delegated\)/);
    });
  });
});
