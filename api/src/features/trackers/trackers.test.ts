import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { TRACKER_PAUSE_AFTER_FAILURES } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { startJiraServer, startServiceNowServer, type JiraServer, type ServiceNowServer } from '../../../test/tracker-servers.js';
import { createTriageRepo } from '../triage/triage.repo.js';

let t: TestContext | undefined;
const servers: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await t?.close();
  t = undefined;
});

/** A database with an admin, a moderator, a user and two posts with their triage records; a Jira site beside it. */
async function setUp(jiraOptions: Parameters<typeof startJiraServer>[0] = {}) {
  const jira = await startJiraServer({ users: ['alice@example.com'], ...jiraOptions });
  servers.push(jira);
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' }, { now: '2026-11-26T12:00:00Z' });
  const db = t.database.db;
  const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'boss@example.com' });
  const { agent: moderator } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com', firstName: 'Mo', lastName: 'Derator' });
  const alice = await signIn(t.app, db, { email: 'alice@example.com', firstName: 'Alice', lastName: 'Admin' });
  await insertMessage(db, {
    externalId: 'MC900001',
    isMajorChange: true,
    actionRequiredBy: new Date('2026-12-15T00:00:00Z'),
    summary: 'Exchange retires basic auth.',
  });
  await insertMessage(db, { externalId: 'MC900002' });
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  return { t, jira, admin, moderator, alice };
}

const jiraBody = (jira: JiraServer, extra: Record<string, unknown> = {}) => ({
  kind: 'jira',
  name: 'Change board',
  baseUrl: jira.url,
  email: 'bot@contoso.com',
  apiToken: 'jira-token',
  projectKey: 'CHG',
  issueType: 'Task',
  ...extra,
});

async function activity(t: TestContext) {
  const { rows } = await t.database.pool.query<{ user_email: string; details: Record<string, unknown> }>(
    `SELECT user_email, details FROM moderator_activities WHERE action_type = 'triage_changed' ORDER BY id`,
  );
  return rows;
}

describe('trackers: connecting a tracker', () => {
  it('connects Jira for admins only, seals the token, refuses bad input naming the field, and tests what is missing', async () => {
    const { t, jira, admin, moderator } = await setUp({ without: ['ADD_COMMENTS'] });
    expect((await request(t.app).get('/api/admin/integrations')).status).toBe(401);
    expect((await moderator.get('/api/admin/integrations')).status).toBe(403);
    expect((await moderator.post('/api/admin/integrations').send(jiraBody(jira))).status).toBe(403);

    const missing = await admin.post('/api/admin/integrations').send({ ...jiraBody(jira), apiToken: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/apiToken/);
    const badKey = await admin.post('/api/admin/integrations').send(jiraBody(jira, { projectKey: 'change board' }));
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.message).toMatch(/projectKey/);
    expect((await admin.post('/api/admin/integrations').send({ ...jiraBody(jira), kind: 'trello' })).body.error.message).toMatch(/kind/);

    const created = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'jira', name: 'Change board', hasSecret: true, paused: false, settings: { projectKey: 'CHG' } });
    expect(JSON.stringify(created.body)).not.toContain('jira-token');
    const { rows } = await t.database.pool.query<{ secret_sealed: string }>(`SELECT secret_sealed FROM integrations`);
    expect(rows[0]?.secret_sealed).toMatch(/^v1\./);
    expect(rows[0]?.secret_sealed).not.toContain('jira-token');

    const test = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(test.body.ok).toBe(false);
    expect(test.body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['Sign-in', true],
      ['Project', true],
      ['Issue type', true],
      ['Permissions', false],
    ]);
    expect(test.body.checks[3].message).toBe('This account lacks in CHG: Add comments');

    // A wrong token is said plainly; a new one replaces it and the test passes the sign-in.
    const wrong = await admin.put(`/api/admin/integrations/${created.body.id}`).send({ apiToken: 'stale' });
    expect(wrong.status).toBe(200);
    const refused = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(refused.body.checks).toEqual([{ name: 'Sign-in', ok: false, message: expect.stringMatching(/refused the e-mail and API token/) }]);
    expect((await admin.put(`/api/admin/integrations/${created.body.id}`).send({ password: 'x' })).status).toBe(400);
    expect((await admin.put(`/api/admin/integrations/${created.body.id}`).send({ settings: { issueType: '' } })).body.error.message).toMatch(
      /settings\.issueType/,
    );
    const log = await admin.get(`/api/admin/integrations/${created.body.id}/deliveries`);
    expect(log.body.attempts.map((a: { action: string; outcome: string }) => [a.action, a.outcome])).toEqual([
      ['test', 'failed'],
      ['test', 'failed'],
    ]);
  });

  it('refuses a site the SSRF guard refuses when private addresses are not allowed', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    const res = await admin.post('/api/admin/integrations').send({
      kind: 'jira',
      name: 'Internal',
      baseUrl: 'http://127.0.0.1:8080',
      email: 'bot@contoso.com',
      apiToken: 'x',
      projectKey: 'CHG',
      issueType: 'Task',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('baseUrl');
  });
});

describe('trackers: tasks in Jira', () => {
  it('creates one issue per record, updates it on the next push, and reads closing, reopening, owner and deletion back', async () => {
    const { t, jira, admin, moderator, alice } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    await moderator.put('/api/triage/message-center/MC900001').send({ ownerId: alice.user.id });

    expect((await alice.agent.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id })).status).toBe(403);
    expect((await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: 999 })).status).toBe(400);
    const first = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'open', key: 'CHG-1', url: `${jira.url}/browse/CHG-1`, remoteState: 'To Do', trackerName: 'Change board' });
    const issue = jira.issues.get('CHG-1');
    expect(issue?.fields).toMatchObject({
      summary: expect.stringMatching(/^MC900001: /),
      duedate: '2026-12-15',
      priority: { name: 'High' },
      assignee: { emailAddress: 'alice@example.com' },
    });
    expect(issue?.fields.labels).toEqual(['m365-radar', expect.stringMatching(/^radar-/)]);
    expect(JSON.stringify(issue?.fields.description)).toContain('http://localhost:8080/message/MC900001');

    // A second push updates the same issue.
    await moderator.put('/api/triage/message-center/MC900001').send({ dueDate: '2026-12-20' });
    const second = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(second.status).toBe(200);
    expect(second.body.key).toBe('CHG-1');
    expect(jira.issues.size).toBe(1);
    expect(jira.issues.get('CHG-1')?.fields.duedate).toBe('2026-12-20');
    const tasks = await alice.agent.get('/api/triage/message-center/MC900001/tasks');
    expect(tasks.body.tasks).toEqual([expect.objectContaining({ key: 'CHG-1', status: 'open', url: `${jira.url}/browse/CHG-1` })]);
    expect((await request(t.app).get('/api/triage/message-center/MC900001/tasks')).status).toBe(401);

    // Closed in Jira: the record is Done, said to come from Jira and who closed it.
    jira.close('CHG-1', 'Jamie Jira');
    const pulled = await admin.post(`/api/admin/integrations/${tracker.id}/pull`);
    expect(pulled.body).toMatchObject({ read: 1, changed: 1, missing: 0 });
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.state).toBe('done');
    const closed = (await activity(t)).at(-1);
    expect(closed?.user_email).toBe('Jira Cloud (Change board)');
    expect(closed?.details).toMatchObject({ source: 'closed in Jira Cloud by Jamie Jira', task: 'CHG-1', changes: [{ field: 'state', after: 'Done' }] });
    // Read again, nothing changed: nothing is written twice.
    expect((await admin.post(`/api/admin/integrations/${tracker.id}/pull`)).body).toMatchObject({ read: 1, changed: 0 });

    // Reopened in Jira: In progress, and no longer closed for a reason of ours (here: as if closed before tracking).
    const mc900001 = `item_id = (SELECT id FROM items WHERE external_id = 'MC900001')`;
    await t.database.pool.query(`UPDATE triage_records SET closed_reason = 'before_tracking' WHERE ${mc900001}`);
    jira.reopen('CHG-1');
    await admin.post(`/api/admin/integrations/${tracker.id}/pull`);
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.state).toBe('in_progress');
    expect((await t.database.pool.query(`SELECT closed_reason FROM triage_records WHERE ${mc900001}`)).rows).toEqual([{ closed_reason: null }]);

    // Deleted in Jira: said so; made again only on request.
    jira.remove('CHG-1');
    expect((await admin.post(`/api/admin/integrations/${tracker.id}/pull`)).body).toMatchObject({ read: 1, missing: 1 });
    expect((await alice.agent.get('/api/triage/message-center/MC900001/tasks')).body.tasks[0].status).toBe('deleted');
    const again = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(again.status).toBe(409);
    const recreated = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id, recreate: true });
    expect(recreated.status).toBe(201);
    expect(recreated.body.key).toBe('CHG-2');
  });

  it('takes an owner and due date changed in Jira; when both sides changed, the later change wins and both are logged', async () => {
    const { t, jira, admin, moderator, alice } = await setUp({ users: ['alice@example.com', 'mod@example.com'] });
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    await moderator.post('/api/triage/message-center/MC900002/tasks').send({ trackerId: tracker.id });
    await admin.post(`/api/admin/integrations/${tracker.id}/pull`);

    t.clock.advance(60_000);
    jira.assign('CHG-1', 'alice@example.com');
    jira.setDue('CHG-1', '2027-01-10');
    await admin.post(`/api/admin/integrations/${tracker.id}/pull`);
    const record = (await alice.agent.get('/api/triage/message-center/MC900002')).body;
    expect(record).toMatchObject({ ownerId: alice.user.id, dueDate: '2027-01-10', dueDateSource: 'manual' });

    // Both sides change the due date: M365 Radar's change is later than Jira's (Jira's clock is the real one, older
    // than the test's), so it stays, and the log says which won.
    jira.setDue('CHG-1', '2027-02-01');
    t.clock.set('2027-06-01T00:00:00Z');
    await moderator.put('/api/triage/message-center/MC900002').send({ dueDate: '2027-01-20' });
    await admin.post(`/api/admin/integrations/${tracker.id}/pull`);
    expect((await alice.agent.get('/api/triage/message-center/MC900002')).body.dueDate).toBe('2027-01-20');
    expect((await activity(t)).at(-1)?.details).toMatchObject({
      conflicts: [{ field: 'dueDate', kept: '2027-01-20', dropped: '2027-02-01', winner: 'M365 Radar' }],
    });
  });

  it('a change made here updates the task on its own, after taking in what changed in Jira meanwhile', async () => {
    const { t, jira, admin, moderator, alice } = await setUp({ users: ['alice@example.com', 'mod@example.com'] });
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    await moderator.post('/api/triage/message-center/MC900002/tasks').send({ trackerId: tracker.id });
    expect(jira.issues.get('CHG-1')?.fields.assignee).toBeNull();

    // Someone assigns the issue in Jira; here, the due date and priority change. The update reads the issue first: the
    // assignee comes back as the owner (and is kept in Jira), the due date and priority go out.
    jira.assign('CHG-1', 'alice@example.com');
    t.clock.advance(60_000);
    const changed = await moderator.put('/api/triage/message-center/MC900002').send({ dueDate: '2027-03-01', priority: 'high' });
    expect(changed.status).toBe(200);
    await t.ctx.services.trackers.deliverNow();
    expect(jira.issues.get('CHG-1')?.fields).toMatchObject({
      duedate: '2027-03-01',
      priority: { name: 'High' },
      assignee: { emailAddress: 'alice@example.com' },
    });
    expect((await alice.agent.get('/api/triage/message-center/MC900002')).body).toMatchObject({ ownerId: alice.user.id, dueDate: '2027-03-01' });
    expect(jira.issues.size).toBe(1);

    // A record without a task queues nothing; a bulk change updates every task of the records it changed.
    await moderator.put('/api/triage/message-center/MC900001').send({ dueDate: '2027-04-01' });
    const bulk = await moderator.post('/api/triage/bulk').send({
      items: [
        { itemType: 'message-center', itemId: 'MC900001' },
        { itemType: 'message-center', itemId: 'MC900002' },
      ],
      set: { dueDate: '2027-05-01' },
    });
    expect(bulk.status).toBe(200);
    await t.ctx.services.trackers.deliverNow();
    expect(jira.issues.get('CHG-1')?.fields.duedate).toBe('2027-05-01');
    expect(jira.issues.size).toBe(1);
  });

  it('never makes a second issue: a create whose answer was lost finds the issue it made, and a tracker down for an hour loses nothing', async () => {
    const { t, jira, admin, moderator } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    jira.down();
    const queued = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(queued.status).toBe(202);
    expect(queued.body.status).toBe('queued');
    // Pushing again while it waits joins the waiting call.
    expect((await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id })).status).toBe(202);
    const { rows: waiting } = await t.database.pool.query(`SELECT id FROM tracker_outbox WHERE status = 'pending'`);
    expect(waiting).toHaveLength(1);

    // Jira made the issue but its answer never arrived: the issue carries the record's label.
    const { rows } = await t.database.pool.query<{ idempotency_key: string }>(`SELECT idempotency_key FROM tracker_links`);
    jira.up();
    jira.issues.set('CHG-7', {
      id: '10007',
      key: 'CHG-7',
      fields: { summary: 'MC900001', labels: ['m365-radar', `radar-${rows[0]?.idempotency_key}`], status: { name: 'To Do', statusCategory: { key: 'new' } } },
      comments: [],
      histories: [],
    });
    jira.down();
    // An hour of outage: every retry fails (backoff), nothing is lost.
    for (let minute = 0; minute < 60; minute += 5) {
      t.clock.advance(5 * 60_000);
      await t.ctx.services.trackers.deliverNow();
    }
    jira.up();
    t.clock.advance(6 * 60 * 60_000);
    await t.ctx.services.trackers.deliverNow();
    const tasks = await moderator.get('/api/triage/message-center/MC900001/tasks');
    expect(tasks.body.tasks[0]).toMatchObject({ key: 'CHG-7', status: 'open' });
    expect(jira.calls.filter((c) => c.method === 'POST' && c.path === '/rest/api/3/issue')).toHaveLength(0);
    expect(jira.issues.size).toBe(1);
    const log = (await admin.get(`/api/admin/integrations/${tracker.id}/deliveries`)).body.attempts;
    expect(log[0]).toMatchObject({ action: 'create', outcome: 'sent', response: 'Found CHG-7, made by an earlier attempt' });
    expect(log.filter((a: { outcome: string }) => a.outcome === 'retrying').length).toBeGreaterThan(0);
  });

  it('adopts the issue a create made when its answer was cut on the way back', async () => {
    const { t, jira, admin, moderator } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    jira.cutNext('POST /rest/api/3/issue');
    const queued = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(queued.status).toBe(202);
    expect(jira.issues.size).toBe(1);
    t.clock.advance(2 * 60_000);
    await t.ctx.services.trackers.deliverNow();
    expect((await moderator.get('/api/triage/message-center/MC900001/tasks')).body.tasks[0]).toMatchObject({ key: 'CHG-1', status: 'open' });
    expect(jira.calls.filter((c) => c.method === 'POST' && c.path === '/rest/api/3/issue')).toHaveLength(1);
  });

  it('honours Retry-After, and pauses after repeated failures with a mail to the admins', async () => {
    const { t, jira, admin, moderator } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    jira.failNext({ status: 429, headers: { 'retry-after': '120' }, body: { errorMessages: ['Rate limit exceeded'] } });
    const queued = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: tracker.id });
    expect(queued.status).toBe(202);
    const { rows } = await t.database.pool.query<{ next_attempt_at: Date }>(`SELECT next_attempt_at FROM tracker_outbox`);
    expect(rows[0]?.next_attempt_at.toISOString()).toBe('2026-11-26T12:02:00.000Z');

    jira.down({ status: 500, body: { errorMessages: ['Internal error'] } });
    for (let i = 0; i < TRACKER_PAUSE_AFTER_FAILURES + 2; i++) {
      t.clock.advance(7 * 60 * 60_000);
      await t.ctx.services.trackers.deliverNow();
      await moderator.post('/api/triage/message-center/MC900002/tasks').send({ trackerId: tracker.id });
    }
    const listed = (await admin.get('/api/admin/integrations')).body.trackers[0];
    expect(listed).toMatchObject({ paused: true, pausedReason: `Paused after ${TRACKER_PAUSE_AFTER_FAILURES} failed calls in a row` });
    const { rows: mails } = await t.database.pool.query<{ to_address: string; subject: string }>(
      `SELECT to_address, subject FROM mail_outbox WHERE kind = 'integration-paused'`,
    );
    expect(mails).toEqual([{ to_address: 'boss@example.com', subject: 'Tasks to “Change board” are paused' }]);
    // Resumed after the outage: what waited is made.
    jira.up();
    t.clock.advance(7 * 60 * 60_000);
    await admin.put(`/api/admin/integrations/${tracker.id}`).send({ paused: false });
    await t.ctx.services.trackers.deliverNow();
    expect(jira.issues.size).toBe(2);
  });
});

describe('trackers: bulk pushes', () => {
  it('queues a task for every record chosen, or none when one is refused; lists the trackers to push to', async () => {
    const { t, jira, admin, moderator, alice } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    expect((await moderator.get('/api/triage/trackers')).body).toEqual({ targets: [{ id: tracker.id, name: 'Change board', kind: 'jira' }] });
    expect((await alice.agent.get('/api/triage/trackers')).status).toBe(403);
    const items = [
      { itemType: 'message-center', itemId: 'MC900001' },
      { itemType: 'message-center', itemId: 'MC900002' },
    ];
    const refused = await moderator.post('/api/triage/bulk-tasks').send({ trackerId: tracker.id, items: [...items, { itemType: 'roadmap', itemId: '1' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0].path).toBe('items.2');
    const { rows: none } = await t.database.pool.query(`SELECT 1 FROM tracker_outbox`);
    expect(none).toHaveLength(0);
    expect((await alice.agent.post('/api/triage/bulk-tasks').send({ trackerId: tracker.id, items })).status).toBe(403);
    const queued = await moderator.post('/api/triage/bulk-tasks').send({ trackerId: tracker.id, items });
    expect(queued.body).toEqual({ queued: 2 });
    await t.ctx.services.trackers.deliverNow();
    expect(jira.issues.size).toBe(2);
  });
});

describe('trackers: triage rules that create tasks', () => {
  it('pushes every record a rule matches to its tracker, once, and refuses a tracker that does not exist', async () => {
    const { t, jira, admin } = await setUp();
    const { body: tracker } = await admin.post('/api/admin/integrations').send(jiraBody(jira));
    const bad = await admin.post('/api/triage-rules').send({ name: 'Major to Jira', query: { search: 'MC900001' }, createTaskIn: 999 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('createTaskIn');
    const rule = await admin
      .post('/api/triage-rules')
      .send({ name: 'Major to Jira', query: { search: 'MC900001' }, setState: 'relevant', createTaskIn: tracker.id });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ createTaskIn: { id: tracker.id, name: 'Change board' } });
    expect((await admin.post('/api/triage-rules/run')).body.changed).toBe(1);
    await t.ctx.services.trackers.deliverNow();
    expect([...jira.issues.values()].map((i) => i.fields.summary)).toEqual([expect.stringMatching(/^MC900001: /)]);
    // Run again: the record's task is brought up to date, never made twice.
    await admin.post('/api/triage-rules/run');
    await t.ctx.services.trackers.deliverNow();
    expect(jira.issues.size).toBe(1);
    expect((await admin.get('/api/triage/message-center/MC900001')).body.state).toBe('relevant');
  });
});

describe('trackers: tasks in ServiceNow', () => {
  let sn: ServiceNowServer;
  it('creates a task record with its correlation id, adds work notes, and reads the close back', async () => {
    const { t, admin, moderator, alice } = await setUp();
    sn = await startServiceNowServer({ users: ['alice@example.com'], groups: ['Change Advisory'] });
    servers.push(sn);
    const created = await admin.post('/api/admin/integrations').send({
      kind: 'servicenow',
      name: 'ITSM',
      baseUrl: sn.url,
      username: 'radar',
      password: 'sn-password',
      table: 'sc_task',
      assignmentGroup: 'Change Advisory',
    });
    expect(created.status).toBe(201);
    const test = await admin.post(`/api/admin/integrations/${created.body.id}/test`);
    expect(test.body).toMatchObject({ ok: true, checks: [{ name: 'Sign-in' }, { name: 'Table' }, { name: 'Assignment group', ok: true }] });

    await moderator.put('/api/triage/message-center/MC900001').send({ ownerId: alice.user.id });
    const pushed = await moderator.post('/api/triage/message-center/MC900001/tasks').send({ trackerId: created.body.id });
    expect(pushed.status).toBe(201);
    expect(pushed.body.key).toMatch(/^SCTASK/);
    const [record] = [...sn.records.values()];
    expect(record?.fields).toMatchObject({
      short_description: expect.stringMatching(/^MC900001: /),
      correlation_id: expect.any(String),
      assignment_group: 'Change Advisory',
      due_date: '2026-12-15 00:00:00',
      priority: '2',
      assigned_to: 'user-alice@example.com',
    });

    // The item changes at the next sync: a work note on the task.
    const { rows: items } = await t.database.pool.query<{ id: number }>(`SELECT id FROM items WHERE external_id = 'MC900001'`);
    const { rows: sync } = await t.database.pool.query<{ id: number }>(
      `INSERT INTO sync_history (source, trigger, status, started_at, changed_items) VALUES ('message_center', 'manual', 'success', now(), 1) RETURNING id`,
    );
    await t.database.pool.query(
      `INSERT INTO item_history (item_id, sync_id, change_type, change_date, changed_fields, previous_values, new_values)
       VALUES ($1, $2, 'changed', now(), '{title}', '{"title":"Old"}', '{"title":"Exchange retires basic auth in 2027"}')`,
      [items[0]?.id, sync[0]?.id],
    );
    // The hook did not run (a crash after the sync's commit): the pull's sweep queues the comment, the hook later none.
    expect(await t.ctx.services.trackers.sweepComments()).toBe(1);
    await t.ctx.services.trackers.onItemsChanged({ syncId: sync[0]?.id ?? 0 });
    expect(await t.ctx.services.trackers.sweepComments()).toBe(0);
    await t.ctx.services.trackers.deliverNow();
    expect(record?.notes).toHaveLength(1);
    expect(record?.notes[0]).toMatch(/^M365 Radar: the item changed\.\n- Title: /);

    sn.close(record?.sys_id ?? '', 'Sam Servicenow');
    await admin.post(`/api/admin/integrations/${created.body.id}/pull`);
    expect((await alice.agent.get('/api/triage/message-center/MC900001')).body.state).toBe('done');
    expect((await activity(t)).at(-1)?.details).toMatchObject({ source: 'closed in ServiceNow by Sam Servicenow' });
  });
});
