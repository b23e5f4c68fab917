import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { applyHeldSyncResponse, discardHeldSyncResponse, syncHistoryResponse } from '@radar/contracts';
import type { TestContext } from '../../../test/context.js';
import { createUser, signIn } from '../../../test/factories.js';
import { createReplayTestContext } from '../../../test/replay-context.js';
import { readFixture, type ReplayServer } from '../../../test/replay-server.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { T_A } from '../../../test/sync-harness.js';
import { itemHistory, items, mailOutbox, notificationSubscriptions } from '../../db/schema/index.js';

/**
 * The snapshot guard end to end over HTTP: a wrong-but-well-formed snapshot is held (nothing removed, nobody but
 * the admins mailed), shown in the sync history, then applied exactly as stored ("Apply anyway") or discarded.
 */
let t: TestContext;
let server: ReplayServer;
let sink: SmtpSink;
let admin: Awaited<ReturnType<typeof signIn>>;
let user: Awaited<ReturnType<typeof signIn>>;

const A = JSON.parse(readFixture('roadmap-a.json')) as { id: number }[];

// Every test starts from its own database, feed and mail server, with the roadmap synced once (12 live items).
beforeEach(async () => {
  sink = await startSmtpSink();
  ({ t, server } = await createReplayTestContext(
    { SYNC_MAX_REMOVED_PERCENT: '10', SYNC_MIN_REMOVED_ITEMS: '1', SMTP_URL: sink.url, ADMIN_EMAILS: 'ops@example.com' },
    { now: T_A },
  ));
  server.addRoadmap('HALF', JSON.stringify(A.slice(0, 6)));
  server.addRoadmap('EMPTY', '[]');
  admin = await signIn(t.app, t.ctx.db, { roles: ['Admin'], email: 'admin@example.com' });
  user = await signIn(t.app, t.ctx.db, { roles: ['User'], email: 'user@example.com' });
  expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' })).run.status).toBe('success');
});
afterEach(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await server.close();
  await sink.close();
});

const activeRoadmap = async () =>
  (
    await t.ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(items)
      .where(sql`${items.source} = 'roadmap' and not ${items.isRemoved}`)
  )[0]!.n;
const historyRows = async () => (await t.ctx.db.select({ n: sql<number>`count(*)::int` }).from(itemHistory))[0]!.n;
const mailsOfKind = (kind: string) => t.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind));
const runOf = async (id: number) => syncHistoryResponse.parse((await admin.agent.get('/api/admin/sync-history')).body).syncHistory.find((r) => r.id === id)!;

/** A follower of 500009, then a sync of the half snapshot, which the guard holds; answers the held run's id. */
async function holdHalf(): Promise<number> {
  const follower = await createUser(t.ctx.db, { email: 'alice@example.com' });
  await t.ctx.db
    .insert(notificationSubscriptions)
    .values({ userId: follower.id, itemType: 'roadmap', itemExternalId: '500009', changeTypes: ['changed', 'status_change'] });
  server.setRoadmap('HALF');
  const { run } = await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' });
  expect(run.status).toBe('held');
  return run.id;
}

describe('snapshot guard', () => {
  it('holds a snapshot that would remove half the live items: nothing removed, no follower mail, admins alerted', async () => {
    const follower = await createUser(t.ctx.db, { email: 'alice@example.com' });
    await t.ctx.db
      .insert(notificationSubscriptions)
      .values({ userId: follower.id, itemType: 'roadmap', itemExternalId: '500009', changeTypes: ['changed', 'status_change'] });
    const before = await historyRows();
    server.setRoadmap('HALF');
    const { run, changes } = await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' });
    const heldId = run.id;
    expect(run).toMatchObject({ status: 'held', success: false, removedItems: 0, newItems: 0, itemsProcessed: 6, totalItems: 12, feedFormat: 'v2' });
    expect(run.note).toBe('The snapshot would remove 6 of 12 live items (50%), more than SYNC_MAX_REMOVED_PERCENT (10%).');
    expect(changes).toBeNull();
    expect(await activeRoadmap()).toBe(12);
    expect(await historyRows()).toBe(before);
    expect(await mailsOfKind('item-change')).toHaveLength(0);

    const alerts = await Promise.all([sink.waitFor('admin@example.com'), sink.waitFor('ops@example.com')]);
    expect(alerts[0].subject).toBe(`M365 Radar: Roadmap sync #${heldId} was held for your decision`);
    expect(alerts[0].text).toContain('would remove 6 of 12 live items');
    expect(alerts[0].text).toContain('http://localhost:8080/admin');
    expect((await mailsOfKind('sync-held')).map((m) => m.toAddress).sort()).toEqual(['admin@example.com', 'ops@example.com']);
  });

  it('shows the held run in the sync history with its reason and counts', async () => {
    const heldId = await holdHalf();
    expect(await runOf(heldId)).toMatchObject({
      status: 'held',
      held: { status: 'pending', itemCount: 6, activeBefore: 12, wouldRemove: 6, decidedBy: null, appliedSyncId: null },
    });
  });

  it('holds the same snapshot again without storing or mailing it twice', async () => {
    const heldId = await holdHalf();
    await Promise.all([sink.waitFor('admin@example.com'), sink.waitFor('ops@example.com')]);
    const res = await admin.agent.post('/api/roadmap/sync');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Roadmap snapshot held for an admin: The snapshot would remove 6 of 12 live items/);
    const run = res.body.sync as { id: number; status: string; note: string };
    expect(run.status).toBe('held');
    expect(run.note).toContain(`Same snapshot as held sync #${heldId}, which is still waiting for an admin.`);
    expect((await runOf(run.id)).held).toBeNull();
    expect(await mailsOfKind('sync-held')).toHaveLength(2);
  });

  it('lets only admins decide; unknown, malformed and not-held ids are refused', async () => {
    const heldId = await holdHalf();
    expect((await request(t.app).post(`/api/admin/sync-history/${heldId}/apply`)).status).toBe(401);
    expect((await user.agent.post(`/api/admin/sync-history/${heldId}/apply`)).status).toBe(403);
    expect((await user.agent.post(`/api/admin/sync-history/${heldId}/discard`)).status).toBe(403);
    const bad = await admin.agent.post('/api/admin/sync-history/abc/apply');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('id');
    expect((await admin.agent.post('/api/admin/sync-history/99999/apply')).status).toBe(404);
    const first = (await runOf(1)).id;
    expect((await admin.agent.post(`/api/admin/sync-history/${first}/discard`)).body.error.message).toMatch(/was not held/);
  });

  it('"Apply anyway" applies exactly the stored snapshot, whatever the feed says now, and mails the followers', async () => {
    const heldId = await holdHalf();
    server.setRoadmap('B');
    const requestsBefore = server.requests.length;
    const res = await admin.agent.post(`/api/admin/sync-history/${heldId}/apply`);
    expect(res.status).toBe(200);
    const body = applyHeldSyncResponse.parse(res.body);
    expect(server.requests.length).toBe(requestsBefore);
    expect(body.sync).toMatchObject({
      status: 'success',
      trigger: 'admin',
      removedItems: 6,
      newItems: 0,
      itemsProcessed: 6,
      totalItems: 6,
      feedFormat: 'v2',
    });
    expect(body.sync.note).toBe(`Applied the snapshot held by sync #${heldId} (Apply anyway).`);
    expect(body.held.held).toMatchObject({ status: 'applied', decidedBy: 'admin@example.com', appliedSyncId: body.sync.id });
    expect(body.message).toBe('Applied the held Roadmap snapshot: 0 new, 0 changed, 6 removed, 0 restored');
    expect(await activeRoadmap()).toBe(6);
    // Follower mail goes through the deliver-mail job (no job runner here).
    await t.ctx.services.mail.deliverNow();
    expect((await sink.waitFor('alice@example.com')).subject).toMatch(/^Removed: /);

    const again = await admin.agent.post(`/api/admin/sync-history/${heldId}/apply`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`Sync #${heldId} was already applied (by sync #${body.sync.id})`);
  });

  it('"Discard" drops a held snapshot, which can then not be applied', async () => {
    server.setRoadmap('EMPTY');
    const { run } = await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' });
    expect(run).toMatchObject({ status: 'held', note: 'The snapshot is empty: applying it would mark all 12 live items removed.' });
    const res = await admin.agent.post(`/api/admin/sync-history/${run.id}/discard`);
    expect(res.status).toBe(200);
    expect(discardHeldSyncResponse.parse(res.body).held.held).toMatchObject({ status: 'discarded', decidedBy: 'admin@example.com' });
    expect((await admin.agent.post(`/api/admin/sync-history/${run.id}/apply`)).body.error.message).toBe(`Sync #${run.id} was discarded`);
    expect(await activeRoadmap()).toBe(12);
  });

  it('a held snapshot is superseded once a newer snapshot of the source is applied', async () => {
    const heldId = await holdHalf();
    // The feed is whole again, with one title edited: applied.
    server.addRoadmap(
      'EDITED',
      JSON.stringify(A.map((item, i) => (i === 0 ? { ...item, title: `${String((item as { title?: string }).title)} (edited)` } : item))),
    );
    server.setRoadmap('EDITED');
    expect((await t.ctx.services.sync.syncRoadmap({ trigger: 'schedule' })).run).toMatchObject({ status: 'success', changedItems: 1 });
    expect((await runOf(heldId)).held?.status).toBe('superseded');
    const res = await admin.agent.post(`/api/admin/sync-history/${heldId}/apply`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/A newer Roadmap snapshot was applied or held after sync #\d+; it can no longer be applied/);
  });

  it('guards Message Center too: an empty Graph answer is held', async () => {
    expect((await t.ctx.services.sync.syncMessages({ trigger: 'schedule' })).run.status).toBe('success');
    server.addMessages('NONE', []);
    server.setMessages('NONE');
    const { run } = await t.ctx.services.sync.syncMessages({ trigger: 'schedule' });
    expect(run).toMatchObject({ status: 'held', feedFormat: 'graph', note: 'The snapshot is empty: applying it would mark all 10 live items removed.' });
  });
});
