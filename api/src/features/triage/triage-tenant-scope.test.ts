import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, signIn } from '../../../test/factories.js';
import { createTriageRepo } from './triage.repo.js';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * A public tenant (Contoso) and a private one (Fabrikam); MC910001 only Fabrikam received, MC910002 only Contoso.
 * Alice was granted Fabrikam, Bob was not; a moderator without the grant, an admin.
 */
async function setUp() {
  t = await createTestContext({}, { now: '2026-11-26T12:00:00Z' });
  const db = t.database.db;
  const pool = t.database.pool;
  const admin = await signIn(t.app, db, { roles: ['Admin'], email: 'boss@example.com', firstName: 'Bo', lastName: 'Ss' });
  const moderator = await signIn(t.app, db, { roles: ['Moderator'], email: 'mod@example.com', firstName: 'Mo', lastName: 'Derator' });
  const alice = await signIn(t.app, db, { email: 'alice@example.com', firstName: 'Alice', lastName: 'Granted' });
  const bob = await signIn(t.app, db, { email: 'bob@example.com', firstName: 'Bob', lastName: 'Outside' });
  const { rows: tenants } = await pool.query<{ id: number }>(
    `INSERT INTO tenants (name, directory_id, visibility) VALUES
       ('Contoso', '11111111-0000-4000-8000-000000000000', 'public'), ('Fabrikam', '22222222-0000-4000-8000-000000000000', 'private') RETURNING id`,
  );
  const contoso = Number(tenants[0]?.id);
  const fabrikam = Number(tenants[1]?.id);
  const secret = await insertMessage(db, { externalId: 'MC910001', title: 'Fabrikam-only secret rollout', createdDate: new Date('2026-11-01T00:00:00Z') });
  const open = await insertMessage(db, { externalId: 'MC910002', title: 'Contoso rollout', createdDate: new Date('2026-11-01T00:00:00Z') });
  await pool.query(`INSERT INTO item_tenants (item_id, tenant_id, first_seen_at) VALUES ($1, $2, now()), ($3, $4, now())`, [
    secret.id,
    fabrikam,
    open.id,
    contoso,
  ]);
  await pool.query(`UPDATE items SET tenant_ids = ARRAY[$2::int] WHERE id = $1`, [secret.id, fabrikam]);
  await pool.query(`UPDATE items SET tenant_ids = ARRAY[$2::int] WHERE id = $1`, [open.id, contoso]);
  await pool.query(`INSERT INTO tenant_access (user_id, tenant_id) VALUES ($1, $2)`, [alice.user.id, fabrikam]);
  await createTriageRepo(db).openRecords('all', new Date('2026-01-01T00:00:00Z'), 'request');
  return { t, admin, moderator, alice, bob, contoso, fabrikam };
}

async function notices(t: TestContext, userId: number) {
  const { rows } = await t.database.pool.query<{ kind: string; sent_at: Date | null; skipped: boolean }>(
    `SELECT kind, sent_at, skipped FROM triage_notifications WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return rows;
}

async function mailsTo(t: TestContext, address: string) {
  const { rows } = await t.database.pool.query<{ subject: string; text: string }>(
    `SELECT subject, text FROM mail_outbox WHERE kind = 'triage' AND to_address = $1 ORDER BY id`,
    [address],
  );
  return rows;
}

async function activity(t: TestContext, itemId: string) {
  const { rows } = await t.database.pool.query<{ action_type: string; user_email: string; details: Record<string, unknown> }>(
    `SELECT action_type, user_email, details FROM moderator_activities WHERE item_id = $1 ORDER BY id`,
    [itemId],
  );
  return rows;
}

describe('triage owners see the record', () => {
  it('refuses an owner who may not see the private tenant with a 400 naming ownerId, and mails nobody', async () => {
    const { t, admin, bob } = await setUp();
    const res = await admin.agent.put('/api/triage/message-center/MC910001').send({ ownerId: bob.user.id });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('ownerId');
    expect(res.body.error.issues[0].message).toMatch(/bob@example\.com may not see Fabrikam/);
    expect((await admin.agent.get('/api/triage/message-center/MC910001')).body.ownerId).toBeNull();
    await t.ctx.services.triageMail.deliver();
    expect(await mailsTo(t, 'bob@example.com')).toEqual([]);
  });

  it('gives a private record to someone granted its tenant, and a public record to anyone', async () => {
    const { admin, alice, bob } = await setUp();
    expect((await admin.agent.put('/api/triage/message-center/MC910001').send({ ownerId: alice.user.id })).status).toBe(200);
    expect((await admin.agent.put('/api/triage/message-center/MC910002').send({ ownerId: bob.user.id })).status).toBe(200);
  });

  it('refuses a bulk change that gives a private record to someone who may not see it, changing none', async () => {
    const { admin, bob } = await setUp();
    const res = await admin.agent.post('/api/triage/bulk').send({
      items: [
        { itemType: 'message-center', itemId: 'MC910002' },
        { itemType: 'message-center', itemId: 'MC910001' },
      ],
      set: { ownerId: bob.user.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('ownerId');
    expect((await admin.agent.get('/api/triage/message-center/MC910002')).body.ownerId).toBeNull();
  });

  it('lets a rule give only the records its owner may see, and logs why it left the others unassigned', async () => {
    const { t, admin, bob } = await setUp();
    const rule = await admin.agent
      .post('/api/triage-rules')
      .send({ name: 'All to Bob', enabled: true, query: {}, setOwnerId: bob.user.id, setState: null, setPriority: null, createTaskIn: null });
    expect(rule.status).toBe(201);
    expect((await admin.agent.post('/api/triage-rules/run')).status).toBe(200);
    expect((await admin.agent.get('/api/triage/message-center/MC910001')).body.ownerId).toBeNull();
    expect((await admin.agent.get('/api/triage/message-center/MC910002')).body.ownerId).toBe(bob.user.id);
    const log = await activity(t, 'MC910001');
    expect(log).toEqual([
      expect.objectContaining({
        user_email: 'Triage rule “All to Bob”',
        details: expect.objectContaining({ notes: ['bob@example.com may not see Fabrikam: left unassigned'] }),
      }),
    ]);
    await t.ctx.services.triageMail.deliver();
    expect((await mailsTo(t, 'bob@example.com')).map((m) => m.text).join('\n')).not.toContain('Fabrikam-only secret rollout');
  });

  it('offers as owners of a tenant’s record only the people who may see that tenant', async () => {
    const { admin, moderator, fabrikam, contoso } = await setUp();
    const emails = async (query: string) =>
      ((await moderator.agent.get(`/api/triage/people?${query}`)).body.people as { email: string }[]).map((p) => p.email).sort();
    expect(await emails(`search=example.com&tenant=${fabrikam}`)).toEqual(['alice@example.com', 'boss@example.com']);
    expect(await emails(`search=example.com&tenant=${contoso}`)).toEqual(['alice@example.com', 'bob@example.com', 'boss@example.com', 'mod@example.com']);
    expect(await emails('search=example.com')).toHaveLength(4);
    expect((await admin.agent.get('/api/triage/people?tenant=x')).body.error.issues[0].path).toBe('tenant');
  });

  it('never suggests as owner of a private record someone who may not see it', async () => {
    const { admin, bob } = await setUp();
    await admin.agent
      .post('/api/triage-rules')
      .send({ name: 'All to Bob', enabled: true, query: {}, setOwnerId: bob.user.id, setState: null, setPriority: null, createTaskIn: null });
    const hidden = await admin.agent.get('/api/triage/message-center/MC910001/suggestion');
    expect(hidden.status).toBe(200);
    expect(hidden.body.owner).toBeNull();
    expect((await admin.agent.get('/api/triage/message-center/MC910002/suggestion')).body.owner).toMatchObject({ email: 'bob@example.com' });
  });
});

describe('triage mentions and mails see the record', () => {
  it('leaves a mention of someone who may not see the record as plain text: not recorded, not mailed', async () => {
    const { t, admin, alice, bob } = await setUp();
    const res = await admin.agent.post('/api/triage/message-center/MC910001/comments').send({ body: 'Over to @alice@example.com and @bob@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.mentions.map((m: { email: string }) => m.email)).toEqual(['alice@example.com']);
    expect(await notices(t, bob.user.id)).toEqual([]);
    expect(await notices(t, alice.user.id)).toHaveLength(1);
  });

  it('sends no due-soon or overdue reminder to an owner who may not see the record', async () => {
    const { t, bob } = await setUp();
    // An owner from before the rule (or set behind the API's back): the reminder job still asks who may see it.
    await t.database.pool.query(
      `UPDATE triage_records tr SET owner_id = $1, due_date = '2026-12-03' FROM items i WHERE i.id = tr.item_id AND i.external_id = 'MC910001'`,
      [bob.user.id],
    );
    expect((await t.ctx.services.triageMail.run()).reminders).toBe(0);
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await t.ctx.services.triageMail.run()).reminders).toBe(0);
    expect(await mailsTo(t, 'bob@example.com')).toEqual([]);
  });

  it('drops a waiting mail about a record its recipient may no longer see', async () => {
    const { t, admin, alice, fabrikam } = await setUp();
    // The first item given goes out at once; the second waits for the next day's batch.
    await admin.agent.put('/api/triage/message-center/MC910002').send({ ownerId: alice.user.id });
    await t.ctx.services.triageMail.deliver();
    expect((await admin.agent.put('/api/triage/message-center/MC910001').send({ ownerId: alice.user.id })).status).toBe(200);
    await t.ctx.services.triageMail.deliver();
    // The grant goes before the batch does; only the grant table changes.
    await t.database.pool.query(`DELETE FROM tenant_access WHERE user_id = $1 AND tenant_id = $2`, [alice.user.id, fabrikam]);
    t.clock.advance(25 * 60 * 60 * 1000);
    await t.ctx.services.triageMail.run();
    expect((await mailsTo(t, 'alice@example.com')).map((m) => m.text).join('\n')).not.toContain('Fabrikam-only');
    expect(await notices(t, alice.user.id)).toEqual([
      expect.objectContaining({ kind: 'assigned', skipped: false }),
      expect.objectContaining({ kind: 'assigned', skipped: true }),
    ]);
  });
});

describe('a revoked grant', () => {
  it('gives the user’s open records of that tenant back to the queue with an activity entry, and stops their mails', async () => {
    const { t, admin, alice } = await setUp();
    await admin.agent.put('/api/triage/message-center/MC910002').send({ ownerId: alice.user.id });
    await t.ctx.services.triageMail.deliver();
    await admin.agent.put('/api/triage/message-center/MC910001').send({ ownerId: alice.user.id, dueDate: '2026-12-03' });
    const revoke = await admin.agent.put(`/api/admin/app-users/${alice.user.id}/tenants`).send({ tenantIds: [] });
    expect(revoke.status).toBe(200);
    expect((await admin.agent.get('/api/triage/message-center/MC910001')).body.ownerId).toBeNull();
    expect((await admin.agent.get('/api/triage/message-center/MC910002')).body.ownerId).toBe(alice.user.id);
    expect((await activity(t, 'MC910001')).at(-1)).toMatchObject({
      action_type: 'triage_changed',
      details: { changes: [{ field: 'owner', before: 'alice@example.com', after: null }], reason: expect.stringMatching(/no longer has access/) },
    });
    t.clock.advance(25 * 60 * 60 * 1000);
    await t.ctx.services.triageMail.run();
    const mails = (await mailsTo(t, 'alice@example.com')).map((m) => `${m.subject}\n${m.text}`).join('\n');
    expect(mails).not.toContain('Fabrikam-only secret rollout');
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    await t.ctx.services.triageMail.run();
    expect((await mailsTo(t, 'alice@example.com')).map((m) => `${m.subject}\n${m.text}`).join('\n')).not.toContain('Fabrikam-only');
  });

  it('takes a tenant made private from the owners who were not granted it', async () => {
    const { t, admin, bob, contoso } = await setUp();
    await admin.agent.put('/api/triage/message-center/MC910002').send({ ownerId: bob.user.id });
    const res = await admin.agent.patch(`/api/admin/tenants/${contoso}`).send({ visibility: 'private' });
    expect(res.status).toBe(200);
    expect((await admin.agent.get('/api/triage/message-center/MC910002')).body.ownerId).toBeNull();
    expect((await activity(t, 'MC910002')).at(-1)?.details).toMatchObject({ reason: expect.stringMatching(/made private/) });
  });

  it('takes private records from an admin who loses the Admin role', async () => {
    const { t, admin } = await setUp();
    const other = await signIn(t.app, t.database.db, { roles: ['Admin'], email: 'second@example.com' });
    await admin.agent.put('/api/triage/message-center/MC910001').send({ ownerId: other.user.id });
    const { rows } = await t.database.pool.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Admin'`);
    expect((await admin.agent.delete(`/api/admin/user-roles/${other.user.id}/${rows[0]?.id}`)).status).toBe(200);
    expect((await admin.agent.get('/api/triage/message-center/MC910001')).body.ownerId).toBeNull();
  });
});

describe('reading triage of a private tenant', () => {
  it('answers a moderator without the grant 404 for the record, its comments, suggestion and tasks, as for an unknown id', async () => {
    const { admin, moderator } = await setUp();
    await admin.agent.post('/api/triage/message-center/MC910001/comments').send({ body: 'Private talk' });
    for (const path of ['', '/comments', '/suggestion', '/tasks']) {
      const hidden = await moderator.agent.get(`/api/triage/message-center/MC910001${path}`);
      const unknown = await moderator.agent.get(`/api/triage/message-center/MC404404${path}`);
      expect([path, hidden.status]).toEqual([path, 404]);
      expect(hidden.body.error.code).toBe(unknown.body.error.code);
      expect(JSON.stringify(hidden.body)).not.toContain('Fabrikam');
    }
    const queue = await moderator.agent.get('/api/triage?view=unassigned&limit=50');
    expect(JSON.stringify(queue.body)).not.toContain('MC910001');
    expect((await moderator.agent.patch('/api/triage/message-center/MC910001/comments/1').send({ body: 'x' })).status).toBe(404);
  });
});

describe('a deleted triage comment', () => {
  it('keeps no text for readers; the admins’ activity log alone keeps what it said', async () => {
    const { t, admin, moderator } = await setUp();
    const added = await moderator.agent.post('/api/triage/message-center/MC910002/comments').send({ body: 'First draft with a secret' });
    const path = `/api/triage/message-center/MC910002/comments/${added.body.id}`;
    await moderator.agent.patch(path).send({ body: 'Second draft with a secret' });
    const deleted = await moderator.agent.delete(path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ body: '', history: [], mentions: [], deletedAt: expect.any(String) });
    const read = await admin.agent.get('/api/triage/message-center/MC910002/comments');
    expect(JSON.stringify(read.body)).not.toContain('secret');
    const { rows } = await t.database.pool.query<{ body: string; history: unknown[] }>(`SELECT body, history FROM triage_comments WHERE id = $1`, [
      added.body.id,
    ]);
    expect(rows[0]).toEqual({ body: '', history: [] });
    expect((await activity(t, 'MC910002')).at(-1)).toMatchObject({
      action_type: 'comment_deleted',
      details: { body: 'Second draft with a secret', history: [{ body: 'First draft with a secret' }] },
    });
  });
});
