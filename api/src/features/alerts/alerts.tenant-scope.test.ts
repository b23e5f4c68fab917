import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { syncHistory, userRoles } from '../../db/schema/index.js';
import { and, eq, inArray } from 'drizzle-orm';
import { roles } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertHistory, insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy, revokeTenant } from '../../../test/tenant-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

/**
 * Alerts are matched with the owner's scope as it is when the alert runs: a personal search stops carrying a private
 * tenant's posts once the grant is revoked, and an organisation search carries every tenant's only while its owner
 * is an admin.
 */
let t: TestContext;
let hook: WebhookReceiver;
let fabrikam: { id: number };
let contoso: { id: number };
const PRIVATE_TITLE = 'Fabrikam-only post for the board';

beforeAll(async () => {
  hook = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
  contoso = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' });
  fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await hook.close();
});

let round = 0;
/** A Message Center sync that brought one new public post and one new private-only post. */
async function syncWithTwoNewPosts(): Promise<number> {
  round++;
  t.clock.advance(60_000);
  const [sync] = await t.database.db
    .insert(syncHistory)
    .values({ source: 'message_center', trigger: 'schedule', startedAt: t.clock.now(), status: 'success', newItems: 2 })
    .returning();
  for (const [title, tenant] of [
    [`Contoso post ${round}`, contoso.id],
    [`${PRIVATE_TITLE} ${round}`, fabrikam.id],
  ] as const) {
    const row = await insertMessage(t.database.db, { title });
    await receivedBy(t.database.db, row.id, [tenant]);
    await insertHistory(t.database.db, row.id, { changeType: 'new', changeDate: t.clock.now() });
    await t.database.pool.query('UPDATE item_history SET sync_id = $1 WHERE item_id = $2', [sync!.id, row.id]);
  }
  return sync!.id;
}

async function deliveredFor(syncId: number): Promise<string[]> {
  hook.requests.length = 0;
  await t.ctx.services.alerts.alertSync(syncId);
  await t.ctx.services.alerts.deliverNow();
  return hook.requests.map((r) => r.body);
}

describe('alert deliveries and the owner’s tenant scope', () => {
  it('a personal search: the private post while granted, not after the grant is revoked', async () => {
    const { user, agent } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, fabrikam.id);
    const channel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: 'Mine', url: `${hook.url}/personal` });
    expect(channel.status).toBe(201);
    const search = await agent
      .post('/api/saved-searches')
      .send({ name: 'All posts', query: { sources: ['messages'] }, alertOn: ['new'], channelIds: [channel.body.id] });
    expect(search.status).toBe(201);

    const granted = await deliveredFor(await syncWithTwoNewPosts());
    expect(granted).toHaveLength(1);
    expect(granted[0]).toContain(`${PRIVATE_TITLE} 1`);

    await revokeTenant(t.database.db, user.id, fabrikam.id);
    const revoked = await deliveredFor(await syncWithTwoNewPosts());
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toContain('Contoso post 2');
    expect(revoked[0]).not.toContain(PRIVATE_TITLE);
    await agent.delete(`/api/saved-searches/${search.body.id}`);
  });

  it('an organisation search: every tenant while its owner is an admin, their own scope once demoted', async () => {
    const { user: admin, agent } = await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] });
    const channel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: 'Org', url: `${hook.url}/org`, scope: 'organisation' });
    expect(channel.status).toBe(201);
    const search = await agent
      .post('/api/saved-searches')
      .send({ name: 'Org posts', scope: 'organisation', query: { sources: ['messages'] }, alertOn: ['new'], channelIds: [channel.body.id] });
    expect(search.status).toBe(201);

    const asAdmin = await deliveredFor(await syncWithTwoNewPosts());
    expect(asAdmin).toHaveLength(1);
    expect(asAdmin[0]).toContain(PRIVATE_TITLE);

    const adminRole = t.database.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'Admin'));
    await t.database.db.delete(userRoles).where(and(eq(userRoles.userId, admin.id), inArray(userRoles.roleId, adminRole)));
    const demoted = await deliveredFor(await syncWithTwoNewPosts());
    expect(demoted).toHaveLength(1);
    expect(demoted[0]).toContain('Contoso post');
    expect(demoted[0]).not.toContain(PRIVATE_TITLE);
  });

  it('withdraws a delivery waiting for a retry, and an alert mail not yet sent, once the owner loses the grant', async () => {
    const { agent: admin } = await signIn(t.app, t.database.db, { roles: ['User', 'Admin'] });
    const { user, agent } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, fabrikam.id);
    const hookChannel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name: 'Retried', url: `${hook.url}/retried` });
    const mailChannel = await agent.post('/api/alert-channels').send({ kind: 'email', name: 'Inbox' });
    expect([hookChannel.status, mailChannel.status]).toEqual([201, 201]);
    const search = await agent.post('/api/saved-searches').send({
      name: 'Private posts',
      query: { sources: ['messages'], search: PRIVATE_TITLE },
      alertOn: ['new'],
      channelIds: [hookChannel.body.id, mailChannel.body.id],
    });
    expect(search.status).toBe(201);

    // The receiver is down: the delivery waits for its retry (the organisation search of the test before still runs).
    hook.answerAlways({ status: 503 });
    await deliveredFor(await syncWithTwoNewPosts());
    hook.answerAlways(null);
    const first = hook.requests.filter((r) => r.path === '/retried');
    expect(first).toHaveLength(1);
    expect(first[0]?.body).toContain(PRIVATE_TITLE);
    const { rows: queued } = await t.database.pool.query<{ status: string; html: string }>(
      `SELECT m.status, m.html FROM mail_outbox m JOIN alert_deliveries d ON d.mail_outbox_id = m.id WHERE d.channel_id = $1`,
      [mailChannel.body.id],
    );
    expect(queued).toEqual([expect.objectContaining({ status: 'pending' })]);

    expect((await admin.put(`/api/admin/app-users/${user.id}/tenants`).send({ tenantIds: [] })).status).toBe(200);
    t.clock.advance(24 * 60 * 60 * 1000);
    hook.requests.length = 0;
    await t.ctx.services.alerts.deliverNow();
    expect(hook.requests.filter((r) => r.path === '/retried')).toEqual([]);
    const log = await agent.get(`/api/alert-channels/${hookChannel.body.id}/deliveries`);
    expect(log.body[0]).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/may no longer see a post it carries/) });
    const { rows: mail } = await t.database.pool.query<{ status: string }>(
      `SELECT m.status FROM mail_outbox m JOIN alert_deliveries d ON d.mail_outbox_id = m.id WHERE d.channel_id = $1`,
      [mailChannel.body.id],
    );
    expect(mail).toEqual([{ status: 'failed' }]);
    await agent.delete(`/api/saved-searches/${search.body.id}`);
  });
});
