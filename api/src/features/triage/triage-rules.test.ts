import { afterEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, insertRoadmapItem, signIn } from '../../../test/factories.js';
import { createSyncHarness, T_A, T_B, type SyncHarness } from '../../../test/sync-harness.js';
import { startAiServer } from '../../../test/ai-server.js';
import { applyTriageRules } from './triage-rules.js';
import { trackerPort } from '../trackers/tracker-port.js';
import { createTriageRulesRepo } from './triage-rules.repo.js';
import { createTriageRepo } from './triage.repo.js';

let h: SyncHarness | undefined;
let t: TestContext | undefined;
afterEach(async () => {
  await h?.close();
  await t?.close();
  h = undefined;
  t = undefined;
});

async function recordOf(harness: SyncHarness, externalId: string) {
  const { rows } = await harness.database.pool.query<{
    state: string;
    owner_id: number | null;
    priority: string;
    priority_source: string;
    rule_fields: Record<string, number>;
  }>(
    `SELECT tr.state, tr.owner_id, tr.priority, tr.priority_source, tr.rule_fields FROM triage_records tr JOIN items i ON i.id = tr.item_id WHERE i.external_id = $1`,
    [externalId],
  );
  return rows[0];
}

describe('triage rules at sync', () => {
  it('run in order on the records a sync opens: the first rule to set a field decides it, and each change is logged', async () => {
    h = await createSyncHarness({ graph: false });
    const db = h.database.db;
    const teams = await createUser(db, { email: 'teams@example.com' });
    const outlook = await createUser(db, { email: 'outlook@example.com' });
    const rules = createTriageRulesRepo(db);
    const now = new Date(T_A);
    const gcc = await rules.insert({ name: 'GCC High: not ours', query: { cloudInstances: ['GCC High'] }, setState: 'not_relevant', setPriority: 'low' }, now);
    const collab = await rules.insert(
      { name: 'Teams to collaboration', query: { products: ['Microsoft Teams'] }, setOwnerId: teams.id, setPriority: 'high' },
      now,
    );
    await rules.insert({ name: 'Roadmap is medium', query: { sources: ['roadmap'] }, setPriority: 'medium' }, now);
    await rules.insert({ name: 'Switched off', enabled: false, query: {}, setState: 'done' }, now);
    // Triage started before every item here launched, so the rules see them all (the line: triage-start.test.ts).
    await h.database.pool.query(`INSERT INTO app_state (key, value) VALUES ('triage-start', '"2024-01-01T00:00:00Z"')`);

    h.clock.set(T_A);
    h.server.setRoadmap('A');
    expect((await h.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
    expect(await recordOf(h, '500008')).toMatchObject({
      state: 'not_relevant',
      priority: 'low',
      priority_source: 'rule',
      rule_fields: { state: gcc.id, priority: gcc.id },
    });
    expect(await recordOf(h, '500001')).toMatchObject({
      state: 'new',
      owner_id: teams.id,
      priority: 'high',
      rule_fields: { owner: collab.id, priority: collab.id },
    });
    expect(await recordOf(h, '500006')).toMatchObject({ state: 'new', owner_id: null, priority: 'medium' });
    const { rows: log } = await h.database.pool.query<{ user_email: string; item_id: string; details: { changes: { field: string }[] } }>(
      `SELECT user_email, item_id, details FROM moderator_activities WHERE item_id = '500001' ORDER BY id`,
    );
    expect(log).toEqual([
      expect.objectContaining({
        user_email: 'Triage rule “Teams to collaboration”',
        details: expect.objectContaining({
          changes: [
            { field: 'owner', before: null, after: 'teams@example.com' },
            { field: 'priority', before: 'low', after: 'high' },
          ],
        }),
      }),
    ]);
    const { rows: told } = await h.database.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM triage_notifications WHERE user_id = $1 AND kind = 'assigned'`,
      [teams.id],
    );
    expect(told[0]?.n).toBe(1);

    // The record says which rule set what; a person's change takes the field out.
    const triage = createTriageRepo(db);
    const [item1] = (await triage.recordsOf(
      (await h.database.pool.query<{ id: number }>(`SELECT id FROM items WHERE external_id = '500001'`)).rows[0]!.id,
      'all',
    ))!;
    expect(item1?.setByRules).toEqual([
      { field: 'owner', ruleId: collab.id, ruleName: 'Teams to collaboration' },
      { field: 'priority', ruleId: collab.id, ruleName: 'Teams to collaboration' },
    ]);
    await triage.update(item1!.id, { ownerId: outlook.id }, outlook.id, now);
    expect((await triage.recordsById([item1!.id]))[0]?.setByRules).toEqual([{ field: 'priority', ruleId: collab.id, ruleName: 'Teams to collaboration' }]);

    // The next sync: only the items new in it are ruled on.
    await h.database.pool.query(
      `UPDATE triage_records SET priority = 'low', priority_source = 'no_signal' WHERE item_id = (SELECT id FROM items WHERE external_id = '500011')`,
    );
    h.clock.set(T_B);
    h.server.setRoadmap('B');
    expect((await h.sync.syncRoadmap({ trigger: 'admin' })).run.status).toBe('success');
    expect(await recordOf(h, '499999')).toMatchObject({ priority: 'medium', priority_source: 'rule' });
    expect(await recordOf(h, '500101')).toMatchObject({ owner_id: teams.id, priority: 'high' });
    expect(await recordOf(h, '500011')).toMatchObject({ priority: 'low' });

    // On request, over the open items: only what nobody decided; a second run changes nothing.
    await rules.insert({ name: 'Outlook owner', query: { products: ['Outlook'] }, setOwnerId: outlook.id }, now);
    expect(await applyTriageRules(db, 'open', new Date(T_B), { trackers: trackerPort })).toBeGreaterThanOrEqual(1);
    expect(await recordOf(h, '500011')).toMatchObject({ owner_id: outlook.id, priority: 'medium' });
    expect(await recordOf(h, '500008')).toMatchObject({ state: 'not_relevant', owner_id: null });
    expect(await applyTriageRules(db, 'open', new Date(T_B), { trackers: trackerPort })).toBe(0);
  });
});

describe('Admin → Triage rules', () => {
  it('adds, changes, orders and removes rules; refuses bad input naming the field; admins only', async () => {
    t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    const { agent: moderator, user } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    expect((await moderator.get('/api/triage-rules')).status).toBe(403);
    expect((await request(t.app).post('/api/triage-rules').send({})).status).toBe(401);

    const first = await admin.post('/api/triage-rules').send({ name: 'GCC High', query: { cloudInstances: ['GCC High'] }, setState: 'not_relevant' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'GCC High', position: 1, enabled: true, setState: 'not_relevant', setOwner: null, setPriority: null });
    const second = await admin.post('/api/triage-rules').send({ name: 'Teams', query: { products: ['Microsoft Teams'] }, setOwnerId: user.id });
    expect(second.body).toMatchObject({ position: 2, setOwner: { id: user.id } });

    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', query: {}, setOwnerId: null }, /at least one of owner, state or priority/],
      [{ name: 'x', query: { releaseMoved: 'forever' }, setState: 'done' }, /query\.releaseMoved/],
      [{ name: 'x', query: { sinceLastVisit: true }, setState: 'done' }, /sinceLastVisit/],
      [{ name: 'x', query: {}, setOwnerId: 99999 }, /setOwnerId|No user has id 99999/],
      [{ name: '', query: {}, setState: 'done' }, /name is required/],
      [{ name: 'x', query: {}, setState: 'closed' }, /state must be one of/],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/triage-rules').send(body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error)).toMatch(message);
    }

    const changed = await admin
      .put(`/api/triage-rules/${first.body.id}`)
      .send({ name: 'GCC High and DoD', enabled: false, query: { cloudInstances: ['GCC High', 'DoD'] }, setState: 'not_relevant' });
    expect(changed.body).toMatchObject({ name: 'GCC High and DoD', enabled: false });
    const ordered = await admin.put('/api/triage-rules/order').send({ ids: [second.body.id, first.body.id] });
    expect(ordered.body.rules.map((r: { name: string }) => r.name)).toEqual(['Teams', 'GCC High and DoD']);
    expect((await admin.put('/api/triage-rules/order').send({ ids: [second.body.id] })).status).toBe(400);

    await insertRoadmapItem(t.database.db, { externalId: '480001', products: ['Microsoft Teams'] });
    await createTriageRepo(t.database.db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
    expect((await admin.post('/api/triage-rules/run')).body).toEqual({ changed: 1 });
    expect((await admin.get('/api/triage/roadmap/480001')).body).toMatchObject({ owner: { id: user.id }, setByRules: [{ field: 'owner', ruleName: 'Teams' }] });

    const left = await admin.delete(`/api/triage-rules/${second.body.id}`);
    expect(left.body.rules.map((r: { name: string }) => r.name)).toEqual(['GCC High and DoD']);
    expect((await admin.delete(`/api/triage-rules/${second.body.id}`)).status).toBe(404);
    expect((await admin.get('/api/triage/roadmap/480001')).body).toMatchObject({ owner: { id: user.id }, setByRules: [] });
  });
});

describe('triage suggestions', () => {
  async function withRuleAndHistory(env: Record<string, string> = {}) {
    t = await createTestContext(env, { now: '2026-11-26T12:00:00Z' });
    const db = t.database.db;
    const { agent: moderator } = await signIn(t.app, db, { roles: ['Moderator'] });
    const { agent: reader } = await signIn(t.app, db);
    const owner = await createUser(db, { email: 'collab@example.com', firstName: 'Colla', lastName: 'Borator' });
    const past = await createUser(db, { email: 'pat@example.com', firstName: 'Pat', lastName: 'Past' });
    for (let i = 0; i < 4; i++) await insertRoadmapItem(db, { externalId: `47000${i}`, products: ['Outlook'] });
    await insertRoadmapItem(db, { externalId: '480001', products: ['Microsoft Teams'] });
    await insertRoadmapItem(db, { externalId: '480002', products: ['Outlook'], isMajorChange: true });
    await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
    // The team gave three Outlook items to Pat and decided them Not relevant.
    await t.database.pool.query(
      `UPDATE triage_records SET owner_id = $1, state = 'not_relevant', updated_at = now() WHERE item_id IN (SELECT id FROM items WHERE external_id IN ('470000', '470001', '470002'))`,
      [past.id],
    );
    await createTriageRulesRepo(db).insert(
      { name: 'Teams to collaboration', query: { products: ['Microsoft Teams'] }, setOwnerId: owner.id, setPriority: 'high' },
      new Date(),
    );
    return { moderator, reader, owner, past };
  }

  it('without AI: from the rules that match and the team’s past decisions, saying so; moderators only', async () => {
    const { moderator, reader, owner, past } = await withRuleAndHistory();
    const teams = await moderator.get('/api/triage/roadmap/480001/suggestion');
    expect(teams.status).toBe(200);
    expect(teams.body).toMatchObject({ source: 'rules', note: null, state: 'relevant', owner: { id: owner.id }, priority: 'high' });
    expect(teams.body.reason).toMatch(/^Rule “Teams to collaboration” gives it to Colla Borator; rule “Teams to collaboration” sets High priority/);
    const outlook = await moderator.get('/api/triage/roadmap/480002/suggestion');
    expect(outlook.body).toMatchObject({ source: 'rules', state: 'not_relevant', owner: { id: past.id }, priority: 'low' });
    expect(outlook.body.reason).toMatch(/Pat Past owned 3 recent items of Outlook; 3 of 3 recent items of the same products were not relevant/);
    expect((await reader.get('/api/triage/roadmap/480001/suggestion')).status).toBe(403);
    // Nothing was applied.
    expect((await moderator.get('/api/triage/roadmap/480001')).body).toMatchObject({ ownerId: null, state: 'new' });
  });

  it('with AI: the service’s checked answer, and the rule-based one with a note when it fails or answers nonsense', async () => {
    const ai = await startAiServer();
    try {
      const { moderator, owner } = await withRuleAndHistory({ AI_BASE_URL: ai.baseUrl, AI_TIMEOUT_MS: '2000' });
      ai.setMode({
        kind: 'ok',
        content:
          '```json\n{"state":"in_progress","ownerEmail":"collab@example.com","priority":"medium","reason":"Teams rule applies; admins must act soon."}\n```',
      });
      const answer = await moderator.get('/api/triage/roadmap/480001/suggestion');
      expect(answer.body).toEqual({
        source: 'ai',
        state: 'in_progress',
        owner: { id: owner.id, email: 'collab@example.com', name: 'Colla Borator' },
        priority: 'medium',
        reason: 'Teams rule applies; admins must act soon.',
        note: null,
      });
      const asked = ai.requests.at(-1)?.body.messages?.[1]?.content ?? '';
      expect(asked).toContain('MATCHING RULES: “Teams to collaboration” sets owner, priority high');
      expect(asked).toContain('collab@example.com');

      ai.setMode({ kind: 'ok', content: '{"state":"done","ownerEmail":"stranger@example.com","priority":"low","reason":"Someone else."}' });
      expect((await moderator.get('/api/triage/roadmap/480001/suggestion')).body).toMatchObject({ source: 'ai', owner: null });
      ai.setMode({ kind: 'ok', content: 'I think it is fine.' });
      expect((await moderator.get('/api/triage/roadmap/480001/suggestion')).body).toMatchObject({
        source: 'rules',
        owner: { id: owner.id },
        note: expect.stringMatching(/could not be used/),
      });
      ai.setMode({ kind: 'error', status: 503, message: 'overloaded' });
      expect((await moderator.get('/api/triage/roadmap/480001/suggestion')).body).toMatchObject({
        source: 'rules',
        note: expect.stringMatching(/could not be asked \(AI service error \(503\): overloaded\)/),
      });
    } finally {
      await ai.close();
    }
  });
});
