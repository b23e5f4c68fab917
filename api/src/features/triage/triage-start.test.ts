import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { createSyncHarness, type SyncHarness } from '../../../test/sync-harness.js';
import { createTriageStartRepo } from './triage-start.repo.js';
import { createTriageRepo } from './triage.repo.js';

let t: TestContext | undefined;
let h: SyncHarness | undefined;
afterEach(async () => {
  await t?.close();
  await h?.close();
  t = undefined;
  h = undefined;
});

type Row = { external_id: string; state: string; closed_reason: string | null; done_at: Date | null };
async function records(pool: TestContext['database']['pool']): Promise<Map<string, Row>> {
  const { rows } = await pool.query<Row>(
    `SELECT i.external_id, tr.state, tr.closed_reason, tr.done_at FROM triage_records tr JOIN items i ON i.id = tr.item_id ORDER BY i.external_id`,
  );
  return new Map(rows.map((r) => [r.external_id, r]));
}

describe('the starting line on day one', () => {
  it('opens work only for posts still live: ended posts and act-by dates long past close before tracking, roadmap items wait', async () => {
    h = await createSyncHarness();
    // 2026-05-05: MC900008 ended on 3 Feb, MC900006 on 15 Apr, MC900001 on 30 Apr, MC900005 on 1 May; MC900009's act-by
    // date (1 Mar) and MC900004's (31 Mar) lie more than the 30-day window before the line. The rest are live.
    h.clock.set('2026-05-05T09:00:00Z');
    expect((await h.sync.syncMessages({ trigger: 'admin' })).run.status).toBe('success');
    expect((await h.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
    const all = await records(h.database.pool);
    const closed = [...all.values()].filter((r) => r.closed_reason === 'before_tracking').map((r) => r.external_id);
    expect(closed).toEqual(['MC900001', 'MC900004', 'MC900005', 'MC900006', 'MC900008', 'MC900009']);
    // Closed, and never counted as done by someone.
    for (const id of closed) expect(all.get(id)).toMatchObject({ state: 'done', done_at: null });
    const open = [...all.values()].filter((r) => r.state === 'new').map((r) => r.external_id);
    expect(open).toEqual(['MC900002', 'MC900003', 'MC900007', 'MC900010']);
    // Roadmap items are triaged when someone opens them: none has a record.
    expect([...all.keys()].filter((id) => !id.startsWith('MC'))).toEqual([]);

    // The line moved back to 1 Mar: only MC900008 (ended 3 Feb) was past then; the other five open again.
    const start = createTriageStartRepo(h.database.db);
    expect(await start.move(null, '2026-03-01', h.clock.now(), true)).toEqual({ closes: 0, opens: 5 });
    const moved = await records(h.database.pool);
    expect(['MC900001', 'MC900004', 'MC900005', 'MC900006', 'MC900009'].map((id) => moved.get(id)?.state)).toEqual(['new', 'new', 'new', 'new', 'new']);
    expect(moved.get('MC900008')?.closed_reason).toBe('before_tracking');
  });
});

describe('overdue means ours', () => {
  it('counts a due date that passed while the record was open, an act-by date, and a date a person set; not a rollout start from before', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const { user: mod, agent } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    // Opened today: a rollout that started last month (not overdue: it passed before anyone tracked it), an act-by date
    // ten days ago (inside the window: overdue), a rollout starting in five days.
    await insertMessage(db, { externalId: 'MC910001', timingStart: '2026-10-15', endDate: new Date('2027-03-01T00:00:00Z') });
    await insertMessage(db, { externalId: 'MC910002', actionRequiredBy: new Date('2026-11-10T00:00:00Z'), endDate: new Date('2027-03-01T00:00:00Z') });
    await insertMessage(db, { externalId: 'MC910003', timingStart: '2026-11-25', endDate: new Date('2027-03-01T00:00:00Z') });
    await createTriageRepo(db).openRecords('all', t.clock.now());
    for (const id of ['MC910001', 'MC910002', 'MC910003']) {
      expect((await agent.put(`/api/triage/message-center/${id}`).send({ ownerId: mod.id })).status).toBe(200);
    }
    const overdue = async () =>
      ((await agent.get('/api/triage').query({ view: 'overdue' })).body.rows as { triage: { itemId: string; overdue: boolean } }[]).map((r) => r.triage.itemId);
    expect(await overdue()).toEqual(['MC910002']);
    expect((await agent.get('/api/triage/counts')).body).toEqual({ open: 3, overdue: 1 });
    expect((await agent.get('/api/triage/message-center/MC910001')).body).toMatchObject({ overdue: false, dueDateReason: expect.any(String) });
    expect((await agent.get('/api/triage/message-center/MC910002')).body).toMatchObject({ overdue: true });

    // Ten days on, the rollout of MC910003 started while it was open: overdue now. A date a person sets in the past is theirs.
    t.clock.advance(10 * 24 * 60 * 60 * 1000);
    expect((await agent.put('/api/triage/message-center/MC910001').send({ dueDate: '2026-11-01' })).status).toBe(200);
    expect((await overdue()).sort()).toEqual(['MC910001', 'MC910002', 'MC910003']);
    expect((await agent.get('/api/triage/counts')).body).toEqual({ open: 3, overdue: 3 });
  });
});

describe('roadmap items are triaged on request', () => {
  it('answers an unopened record, opens it on "Triage this" or a first change, and when a triaged post announces it', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    const { agent: mod } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    const { agent: reader } = await signIn(t.app, db, { email: 'reader@example.com' });
    const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'admin@example.com' });
    await insertRoadmapItem(db, { externalId: '490001', timingStart: '2027-01-01', timingEnd: '2027-01-31' });
    await insertRoadmapItem(db, { externalId: '490002', status: 'Rolling out', timingStart: '2026-12-01' });
    await insertRoadmapItem(db, { externalId: '490003', status: 'Launched', timingStart: '2025-06-01' });
    const post = await insertMessage(db, { externalId: 'MC920001', endDate: new Date('2027-03-01T00:00:00Z') });
    await pool.query(`INSERT INTO message_roadmap_links (message_item_id, roadmap_external_id, origin) VALUES ($1, '490002', 'details')`, [post.id]);
    await createTriageRepo(db).openRecords('all', t.clock.now());
    expect([...(await records(pool)).keys()]).toEqual(['MC920001']);

    // Read: the record it would start as, nothing stored.
    const read = await mod.get('/api/triage/roadmap/490001');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ opened: false, state: 'new', dueDate: '2027-01-01', dueDateSource: 'roadmap_ga', closedReason: null });
    expect([...(await records(pool)).keys()]).toEqual(['MC920001']);

    // "Triage this": moderators and admins only.
    expect((await reader.post('/api/triage/roadmap/490001/open')).status).toBe(403);
    const opened = await mod.post('/api/triage/roadmap/490001/open');
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ opened: true, state: 'new' });
    // A first change opens it too, even for a launched item a person chose.
    expect((await admin.put('/api/triage/roadmap/490003').send({ priority: 'high' })).body).toMatchObject({ opened: true, priority: 'high', state: 'new' });
    // A reader's refused change opens nothing.
    expect((await reader.put('/api/triage/roadmap/490002').send({ state: 'relevant' })).status).toBe(403);
    expect((await records(pool)).has('490002')).toBe(false);

    // The post that announces 490002 is triaged as Relevant: 490002 opens.
    expect((await mod.put('/api/triage/message-center/MC920001').send({ state: 'relevant' })).status).toBe(200);
    expect((await records(pool)).get('490002')).toMatchObject({ state: 'new', closed_reason: null });
  });

  it('opens every upcoming roadmap item when the setting asks, and rules open the roadmap items they match', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'admin@example.com' });
    const { agent: mod } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    await insertRoadmapItem(db, { externalId: '490011', products: ['Outlook'] });
    await insertRoadmapItem(db, { externalId: '490012', status: 'Launched', timingStart: '2025-06-01', products: ['Outlook'] });
    await insertRoadmapItem(db, { externalId: '490013', status: 'Cancelled', products: ['SharePoint'] });
    await insertRoadmapItem(db, { externalId: '490014', status: 'Rolling out', products: ['SharePoint'] });

    expect((await mod.put('/api/triage/settings').send({ openUpcomingRoadmap: true })).status).toBe(403);
    expect((await admin.put('/api/triage/settings').send({ startWindowDays: -1 })).body).toMatchObject({
      error: { issues: [{ path: 'startWindowDays', message: 'startWindowDays must be 0 or more' }] },
    });
    // A rule that matches Outlook items opens both; the launched one (GA long before the line) closes before tracking.
    expect((await admin.post('/api/triage-rules').send({ name: 'Outlook', query: { products: ['Outlook'] }, setPriority: 'high' })).status).toBe(201);
    expect((await admin.post('/api/triage-rules/run')).status).toBe(200);
    let all = await records(pool);
    expect(all.get('490011')).toMatchObject({ state: 'new' });
    expect(all.get('490012')).toMatchObject({ state: 'done', closed_reason: 'before_tracking' });
    expect(all.has('490013')).toBe(false);

    const saved = await admin.put('/api/triage/settings').send({ openUpcomingRoadmap: true });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ startWindowDays: 30, openUpcomingRoadmap: true });
    all = await records(pool);
    expect(all.get('490014')).toMatchObject({ state: 'new' });
    expect(all.has('490013')).toBe(false);
  });
});

describe('moving the starting line', () => {
  it('previews, then closes untouched records of items past that day and opens those not past; touched records stay', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    const { agent: admin } = await signIn(t.app, db, { roles: ['Admin'], email: 'admin@example.com' });
    const { agent: mod } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    const { rows } = await pool.query<{ id: number }>(
      `INSERT INTO tenants (name, directory_id, visibility, created_at, triage_start)
       VALUES ('Contoso', '11111111-0000-4000-8000-000000000000', 'public', '2026-09-01', '2026-09-01') RETURNING id`,
    );
    const contoso = Number(rows[0]?.id);
    const posts = [
      await insertMessage(db, { externalId: 'MC930001', endDate: new Date('2026-10-15T00:00:00Z') }),
      await insertMessage(db, { externalId: 'MC930002', endDate: new Date('2026-10-20T00:00:00Z') }),
      await insertMessage(db, { externalId: 'MC930003', endDate: new Date('2027-01-31T00:00:00Z') }),
      await insertMessage(db, { externalId: 'MC930004', endDate: new Date('2026-08-01T00:00:00Z') }),
    ];
    for (const p of posts) await pool.query(`INSERT INTO item_tenants (item_id, tenant_id, first_seen_at) VALUES ($1, $2, now())`, [p.id, contoso]);
    await createTriageRepo(db).openRecords('all', t.clock.now());
    // Triage started for Contoso on 1 Sep: only MC930004 had ended by then.
    expect([...(await records(pool)).values()].map((r) => [r.external_id, r.state])).toEqual([
      ['MC930001', 'new'],
      ['MC930002', 'new'],
      ['MC930003', 'new'],
      ['MC930004', 'done'],
    ]);
    // Someone works on MC930002.
    expect((await mod.put('/api/triage/message-center/MC930002').query({ tenant: contoso }).send({ state: 'relevant' })).status).toBe(200);

    expect((await mod.post('/api/triage/start').send({ tenantId: contoso, from: '2026-11-01', preview: true })).status).toBe(403);
    expect((await admin.post('/api/triage/start').send({ tenantId: contoso, from: '2026-12-01' })).body).toMatchObject({
      error: { issues: [{ path: 'from', message: 'The starting line cannot be after today' }] },
    });
    expect((await admin.post('/api/triage/start').send({ tenantId: 999, from: '2026-11-01' })).body).toMatchObject({
      error: { issues: [{ path: 'tenantId' }] },
    });
    expect((await admin.post('/api/triage/start').send({ tenantId: contoso, from: '2026-11-31' })).body).toMatchObject({
      error: { issues: [{ path: 'from', message: 'from must be a date that exists' }] },
    });

    const preview = await admin.post('/api/triage/start').send({ tenantId: contoso, from: '2026-11-01', preview: true });
    expect(preview.body).toEqual({ closes: 1, opens: 0, applied: false });
    expect((await records(pool)).get('MC930001')?.state).toBe('new');
    const moved = await admin.post('/api/triage/start').send({ tenantId: contoso, from: '2026-11-01' });
    expect(moved.body).toEqual({ closes: 1, opens: 0, applied: true });
    const after = await records(pool);
    expect(after.get('MC930001')).toMatchObject({ state: 'done', closed_reason: 'before_tracking' });
    expect(after.get('MC930002')).toMatchObject({ state: 'relevant', closed_reason: null });
    const lines = (await admin.get('/api/triage/start')).body;
    expect(lines.lines).toEqual([{ tenantId: contoso, tenantName: 'Contoso', from: '2026-11-01', open: 2, closedBeforeTracking: 2 }]);
    // Closed before tracking is not done by someone: the Done view leaves it out.
    expect((await mod.get('/api/triage').query({ view: 'done' })).body.total).toBe(0);
    // The list and the export say so instead of "Done".
    const listed = await mod.get('/api/unified/items').query({ includeRemoved: true, limit: 100 });
    expect(listed.body.triage['messages-MC930001']).toEqual([expect.objectContaining({ state: 'done', closedReason: 'before_tracking' })]);
    const csv = (await mod.get('/api/dashboard/export').query({ includeRemoved: true })).text.split('\r\n');
    expect(csv.find((l) => l.startsWith('MC930001,'))).toMatch(/,Closed before tracking,/);

    // Back to 1 Jul: MC930004 (ended 1 Aug) and MC930001 open again, tracked from that day.
    expect((await admin.post('/api/triage/start').send({ tenantId: contoso, from: '2026-07-01' })).body).toEqual({ closes: 0, opens: 2, applied: true });
    expect([...(await records(pool)).values()].map((r) => r.state)).toEqual(['new', 'relevant', 'new', 'new']);
  });

  it('opens a record closed before tracking again when Microsoft extends its post, or when a person reopens or assigns it', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    const { agent: mod } = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com' });
    const ended = await insertMessage(db, { externalId: 'MC940001', endDate: new Date('2026-11-01T00:00:00Z') });
    await insertMessage(db, { externalId: 'MC940002', endDate: new Date('2026-11-02T00:00:00Z') });
    await createTriageRepo(db).openRecords('all', t.clock.now());
    const closed = (await mod.get('/api/triage/message-center/MC940002')).body;
    expect(closed).toMatchObject({ state: 'done', closedReason: 'before_tracking', startLine: '2026-11-20', opened: true });

    await pool.query(`UPDATE items SET end_date = '2027-02-01' WHERE id = $1`, [ended.id]);
    expect(await createTriageStartRepo(db).reopenChanged([ended.id], t.clock.now())).toHaveLength(1);
    expect((await records(pool)).get('MC940001')).toMatchObject({ state: 'new', closed_reason: null });

    const reopened = await mod.put('/api/triage/message-center/MC940002').send({ state: 'new' });
    expect(reopened.body).toMatchObject({ state: 'new', closedReason: null });
    // Giving someone a record closed before tracking opens it too.
    await pool.query(`UPDATE triage_records SET state = 'done', closed_reason = 'before_tracking'`);
    const { user: owner } = await signIn(t.app, db, { email: 'owner@example.com' });
    const given = await mod.put('/api/triage/message-center/MC940002').send({ ownerId: owner.id });
    expect(given.body).toMatchObject({ state: 'new', closedReason: null, owner: { email: 'owner@example.com' } });
    expect((await records(pool)).get('MC940001')).toMatchObject({ state: 'done', closed_reason: 'before_tracking' });
  });
});

describe('upgrading an installation that triaged before the starting line', () => {
  it('removes untouched roadmap records and closes untouched records of items past at their line, once', async () => {
    t = await createTestContext({}, { now: '2026-11-20T12:00:00Z' });
    const db = t.database.db;
    const pool = t.database.pool;
    await insertRoadmapItem(db, { externalId: '495001' });
    await insertRoadmapItem(db, { externalId: '495002' });
    await insertMessage(db, { externalId: 'MC950001', endDate: new Date('2026-01-01T00:00:00Z') });
    await insertMessage(db, { externalId: 'MC950002', endDate: new Date('2027-01-01T00:00:00Z') });
    // As triage opened them before: every item, open.
    await createTriageRepo(db).openRecords('all', t.clock.now(), 'request');
    await pool.query(`UPDATE triage_records SET priority = 'high', priority_source = 'manual', updated_at = now(), updated_by_id = NULL, rule_fields = '{"priority": 1}'
      WHERE item_id = (SELECT id FROM items WHERE external_id = '495002')`);
    await pool.query(`DELETE FROM app_state WHERE key = 'triage-start-upgrade'`);
    const start = createTriageStartRepo(db);
    expect(await start.upgradeOnce(t.clock.now())).toEqual({ removed: 1, closed: 1 });
    const all = await records(pool);
    expect([...all.keys()]).toEqual(['495002', 'MC950001', 'MC950002']);
    expect(all.get('MC950001')).toMatchObject({ state: 'done', closed_reason: 'before_tracking' });
    expect(await start.upgradeOnce(t.clock.now())).toBeNull();
  });
});
