import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { mailOutbox, syncHistory } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertHistory, insertMessage, signIn } from '../../../test/factories.js';
import { grantTenant, insertTenant, receivedBy, revokeTenant } from '../../../test/tenant-fixtures.js';

/**
 * Subscriptions follow the tenant rule: a post of a private tenant the caller was not given is an id that does not
 * exist (create answers the unknown id's 404), is listed without its title once the grant is gone, and its changes
 * are mailed only to followers who may see it when the mail is written.
 */
let t: TestContext;
let publicPostId: number;
let privatePostId: number;
let privateTenant: { id: number };
const PRIVATE_TITLE = 'Fabrikam-only rollout of the secret feature';

beforeAll(async () => {
  t = await createTestContext();
  const db = t.database.db;
  const open = await insertTenant(db, { name: 'Contoso', visibility: 'public' });
  privateTenant = await insertTenant(db, { name: 'Fabrikam', visibility: 'private' });
  const pub = await insertMessage(db, { externalId: 'MC700001', title: 'Contoso post' });
  const priv = await insertMessage(db, { externalId: 'MC700002', title: PRIVATE_TITLE });
  await receivedBy(db, pub.id, [open.id]);
  await receivedBy(db, priv.id, [privateTenant.id]);
  publicPostId = pub.id;
  privatePostId = priv.id;
});
afterAll(async () => {
  await t.close();
});

const follow = (itemId: string) => ({ subscriptionType: 'item', itemType: 'message_center', itemId, changeTypes: ['changed'] });

describe('following a post of a private tenant', () => {
  it('answers an ungranted user exactly as for an id that does not exist', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    const unknown = await agent.post('/api/notification-subscriptions').send(follow('MC799999'));
    const hidden = await agent.post('/api/notification-subscriptions').send(follow('MC700002'));
    expect(unknown.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.name).toBe(unknown.body.error.name);
    expect(hidden.body.error.message).toBe(unknown.body.error.message.replace('MC799999', 'MC700002'));
    expect(hidden.text).not.toContain(PRIVATE_TITLE);
    expect((await agent.get('/api/notification-subscriptions')).body).toEqual([]);
  });

  it('lets a granted user follow it; once the grant is revoked it is listed without its title', async () => {
    const { user, agent } = await signIn(t.app, t.database.db);
    await grantTenant(t.database.db, user.id, privateTenant.id);
    const created = await agent.post('/api/notification-subscriptions').send(follow('mc700002'));
    expect(created.status).toBe(201);
    expect(created.body.itemTitle).toBe(PRIVATE_TITLE);
    await revokeTenant(t.database.db, user.id, privateTenant.id);
    const list = await agent.get('/api/notification-subscriptions');
    expect(list.body).toEqual([expect.objectContaining({ id: created.body.id, itemId: 'MC700002', itemTitle: null })]);
    expect(list.text).not.toContain(PRIVATE_TITLE);
    // Still its own to delete.
    expect((await agent.delete(`/api/notification-subscriptions/${created.body.id}`)).status).toBe(200);
  });
});

describe('change mails', () => {
  it('go only to followers who may see the post now', async () => {
    const db = t.database.db;
    const { user: kept, agent: keptAgent } = await signIn(t.app, db);
    const { user: revoked, agent: revokedAgent } = await signIn(t.app, db);
    for (const u of [kept, revoked]) await grantTenant(db, u.id, privateTenant.id);
    for (const agent of [keptAgent, revokedAgent]) {
      expect((await agent.post('/api/notification-subscriptions').send(follow('MC700002'))).status).toBe(201);
      expect((await agent.post('/api/notification-subscriptions').send(follow('MC700001'))).status).toBe(201);
    }
    await revokeTenant(db, revoked.id, privateTenant.id);
    const [sync] = await db
      .insert(syncHistory)
      .values({ source: 'message_center', trigger: 'schedule', startedAt: t.clock.now(), status: 'success', changedItems: 2 })
      .returning();
    for (const [id, title] of [
      [privatePostId, PRIVATE_TITLE],
      [publicPostId, 'Contoso post'],
    ] as const) {
      await insertHistory(db, id, {
        changeType: 'changed',
        changeDate: t.clock.now(),
        changedFields: ['title'],
        previousValues: { title: 'Before' },
        newValues: { title },
      });
      await t.database.pool.query('UPDATE item_history SET sync_id = $1 WHERE item_id = $2', [sync!.id, id]);
    }
    await t.ctx.services.notifications.notifySync(sync!.id);
    const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'item-change'));
    const to = (u: { email: string }) => mails.filter((m) => m.toAddress === u.email);
    expect(to(kept)).toHaveLength(1);
    expect(JSON.stringify(to(kept))).toContain(PRIVATE_TITLE);
    expect(to(revoked)).toHaveLength(1);
    expect(JSON.stringify(to(revoked))).toContain('Contoso post');
    expect(JSON.stringify(to(revoked))).not.toContain(PRIVATE_TITLE);
  });
});
