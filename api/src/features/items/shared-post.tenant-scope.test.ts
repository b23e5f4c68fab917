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
});
