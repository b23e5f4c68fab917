import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { items, syncHistory } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertHistory, insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';

/**
 * A post a public and a private tenant both received is one item with one copy of its fields: the copy of the tenant
 * whose run wrote it last. What is that tenant's own — the rollout status for the organisation and "reached your
 * tenant" — is shown only to readers who may see that tenant; the dialog's tenant list names only the tenants the
 * reader may see.
 */
let t: TestContext;
let hook: WebhookReceiver;
let contoso: { id: number };
let fabrikam: { id: number };
let sharedRowId: number;
const launched = (status: string) => ({ '501': [{ RoadmapId: '501', Platform: 'Web', Status: status }] });

beforeAll(async () => {
  hook = await startWebhookReceiver();
  t = await createTestContext({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
  contoso = await insertTenant(t.database.db, { name: 'Contoso', visibility: 'public' });
  fabrikam = await insertTenant(t.database.db, { name: 'Fabrikam', visibility: 'private' });
  const row = await insertMessage(t.database.db, {
    externalId: 'MC730001',
    title: 'Shared post',
    featureStatus: launched('Launched'),
    contentTenantId: fabrikam.id,
  });
  await receivedBy(t.database.db, row.id, [contoso.id, fabrikam.id]);
  sharedRowId = row.id;
});
afterAll(async () => {
  t.ctx.services.mail.close();
  await t.close();
  await hook.close();
});

const dialogOf = async (agent: { get(url: string): request.Test }) => {
  const res = await agent.get('/api/message-center/items/MC730001');
  expect(res.status).toBe(200);
  return {
    status: res.body.tenantStatus.map((s: { platform: string; status: string }) => `${s.platform}: ${s.status}`),
    tenants: res.body.tenants.map((x: { name: string }) => x.name),
  };
};

describe('a post received by a public and a private tenant', () => {
  it('shows the private tenant’s rollout status and its tenant row only to those who may see that tenant', async () => {
    const guest = request(t.app);
    const { agent: ungranted } = await signIn(t.app, t.database.db);
    const { user, agent: granted } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, fabrikam.id);
    expect(await dialogOf(guest)).toEqual({ status: [], tenants: ['Contoso'] });
    expect(await dialogOf(ungranted)).toEqual({ status: [], tenants: ['Contoso'] });
    expect(await dialogOf(granted)).toEqual({ status: ['Web: Launched'], tenants: ['Contoso', 'Fabrikam'] });
    // The public tenant's copy is everyone's.
    await t.database.db.update(items).set({ contentTenantId: contoso.id }).where(eq(items.id, sharedRowId));
    expect(await dialogOf(guest)).toEqual({ status: ['Web: Launched'], tenants: ['Contoso'] });
    await t.database.db.update(items).set({ contentTenantId: fabrikam.id }).where(eq(items.id, sharedRowId));
  });

  it('alerts "reached your tenant" from the private tenant’s run only to owners who may see that tenant', async () => {
    const { agent: ungranted } = await signIn(t.app, t.database.db);
    const { user, agent: granted } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, fabrikam.id);
    for (const [name, agent] of [
      ['ungranted', ungranted],
      ['granted', granted],
    ] as const) {
      const channel = await agent.post('/api/alert-channels').send({ kind: 'webhook', name, url: `${hook.url}/${name}` });
      expect(channel.status).toBe(201);
      const search = await agent
        .post('/api/saved-searches')
        .send({ name: 'Launched here', query: { sources: ['messages'] }, alertOn: ['reached_tenant'], channelIds: [channel.body.id] });
      expect(search.status).toBe(201);
    }
    t.clock.advance(60_000);
    const [sync] = await t.database.db
      .insert(syncHistory)
      .values({
        source: 'message_center',
        trigger: 'schedule',
        startedAt: t.clock.now(),
        status: 'success',
        changedItems: 1,
        tenantId: fabrikam.id,
        tenantName: 'Fabrikam',
      })
      .returning();
    const historyId = await insertHistory(t.database.db, sharedRowId, {
      changeType: 'changed',
      changeDate: t.clock.now(),
      changedFields: ['featureStatus'],
      previousValues: { featureStatus: launched('Scheduled') },
      newValues: { featureStatus: launched('Launched') },
    });
    await t.database.pool.query('UPDATE item_history SET sync_id = $1 WHERE id = $2', [sync!.id, historyId]);
    await t.ctx.services.alerts.alertSync(sync!.id);
    await t.ctx.services.alerts.deliverNow();
    expect(hook.requests.map((r) => r.path)).toEqual(['/granted']);
    expect(hook.requests[0]!.body).toContain('Reached your tenant: Web');
  });

  it('keeps the private tenant’s status changes out of the history, versions and feed of readers who may not see it', async () => {
    // The run of the test before recorded a status-only change; this one changes the title and the status together.
    t.clock.advance(60_000);
    const [sync] = await t.database.db
      .insert(syncHistory)
      .values({ source: 'message_center', trigger: 'schedule', startedAt: t.clock.now(), status: 'success', tenantId: fabrikam.id, tenantName: 'Fabrikam' })
      .returning();
    const historyId = await insertHistory(t.database.db, sharedRowId, {
      changeType: 'changed',
      changeDate: t.clock.now(),
      changedFields: ['title', 'featureStatus'],
      previousValues: { title: 'Shared post (old)', featureStatus: launched('Launched') },
      newValues: { title: 'Shared post', featureStatus: launched('Rolling out') },
    });
    await t.database.pool.query('UPDATE item_history SET sync_id = $1 WHERE id = $2', [sync!.id, historyId]);

    const { agent: ungranted } = await signIn(t.app, t.database.db);
    const { user, agent: granted } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, fabrikam.id);
    const historyOf = async (agent: { get(url: string): request.Test }) => {
      const res = await agent.get('/api/message-center/items/MC730001/history');
      expect(res.status).toBe(200);
      return res.body as { changedFields: string[]; previousValues: Record<string, unknown>; newValues: Record<string, unknown> }[];
    };
    const seen = await historyOf(granted);
    expect(seen.map((h) => h.changedFields)).toEqual([['title', 'featureStatus'], ['featureStatus']]);
    for (const agent of [ungranted, request(t.app)]) {
      const hidden = await historyOf(agent);
      expect(hidden.map((h) => h.changedFields)).toEqual([['title']]);
      expect(JSON.stringify(hidden)).not.toMatch(/Rolling out|Scheduled|featureStatus/);
    }
    const versions = async (agent: { get(url: string): request.Test }) => (await agent.get('/api/message-center/items/MC730001/versions')).body.length;
    expect(await versions(ungranted)).toBe((await versions(granted)) - 1);
    const feedOf = async (agent: { get(url: string): request.Test }) => {
      const res = await agent.get('/api/feeds/items.rss?sources=messages');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Shared post');
      return res.text;
    };
    expect(await feedOf(granted)).toMatch(/Rolling out/);
    expect(await feedOf(request(t.app))).not.toMatch(/Rolling out|featureStatus|Status for your org/);
  });

  it('mails followers who may not see the private tenant of its run only the rest of a change', async () => {
    const db = t.database.db;
    const { user: plain, agent: plainAgent } = await signIn(t.app, db);
    const { user: granted, agent: grantedAgent } = await signIn(t.app, db);
    await grantTenant(db, granted.id, fabrikam.id);
    for (const agent of [plainAgent, grantedAgent]) {
      const res = await agent
        .post('/api/notification-subscriptions')
        .send({ subscriptionType: 'item', itemType: 'message_center', itemId: 'MC730001', changeTypes: ['changed'] });
      expect(res.status).toBe(201);
    }
    const runOf = async (changedFields: string[], values: [Record<string, unknown>, Record<string, unknown>]) => {
      t.clock.advance(60_000);
      const [sync] = await db
        .insert(syncHistory)
        .values({ source: 'message_center', trigger: 'schedule', startedAt: t.clock.now(), status: 'success', tenantId: fabrikam.id, tenantName: 'Fabrikam' })
        .returning();
      const id = await insertHistory(db, sharedRowId, {
        changeType: 'changed',
        changeDate: t.clock.now(),
        changedFields,
        previousValues: values[0],
        newValues: values[1],
      });
      await t.database.pool.query('UPDATE item_history SET sync_id = $1 WHERE id = $2', [sync!.id, id]);
      await t.ctx.services.notifications.notifySync(sync!.id);
      const { rows } = await t.database.pool.query<{ to_address: string; text: string }>(
        `SELECT to_address, text FROM mail_outbox WHERE kind = 'item-change' AND dedupe_key LIKE $1`,
        [`item-change:${sync!.id}:%`],
      );
      return (u: { email: string }) => rows.filter((r) => r.to_address === u.email).map((r) => r.text);
    };
    const statusOnly = await runOf(['featureStatus'], [{ featureStatus: launched('Rolling out') }, { featureStatus: launched('Launched') }]);
    expect(statusOnly(granted)).toHaveLength(1);
    expect(statusOnly(plain)).toEqual([]);
    const both = await runOf(
      ['title', 'featureStatus'],
      [
        { title: 'Shared post (draft)', featureStatus: launched('Launched') },
        { title: 'Shared post', featureStatus: launched('Rolling out') },
      ],
    );
    expect(both(granted).join()).toMatch(/Rolling out/);
    expect(both(plain)).toHaveLength(1);
    expect(both(plain).join()).toContain('Shared post (draft)');
    expect(both(plain).join()).not.toMatch(/Rolling out/);
  });
});
