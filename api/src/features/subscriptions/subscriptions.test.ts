import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';

let t: TestContext;

const roadmapSub = {
  subscriptionType: 'item',
  itemId: '496594',
  itemType: 'roadmap',
  itemTitle: 'Microsoft 365 Apps: Cloud Update',
  changeTypes: ['changed', 'status_change'],
  isActive: true,
};

// Each test starts from its own database, so none depends on what another wrote.
beforeEach(async () => {
  t = await createTestContext();
  await insertRoadmapItem(t.database.db, { externalId: '496594', title: 'Microsoft 365 Apps: Cloud Update' });
  await insertMessage(t.database.db, { externalId: 'MC1000269', title: 'Teams: emoji shortcut' });
});
afterEach(async () => {
  await t.close();
});

describe('notification subscriptions', () => {
  it('are for signed-in users only', async () => {
    expect((await request(t.app).get('/api/notification-subscriptions')).status).toBe(401);
    expect((await request(t.app).post('/api/notification-subscriptions').send(roadmapSub)).status).toBe(401);
    expect((await request(t.app).delete('/api/notification-subscriptions/1')).status).toBe(401);
  });

  it('POST creates one exactly as the dialog posts it; GET lists it', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    const res = await agent.post('/api/notification-subscriptions').send(roadmapSub);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      subscriptionType: 'item',
      itemId: '496594',
      itemType: 'roadmap',
      itemTitle: 'Microsoft 365 Apps: Cloud Update',
      changeTypes: ['changed', 'status_change'],
      isActive: true,
      createdAt: '2026-02-07T12:00:00.000Z',
    });
    const list = await agent.get('/api/notification-subscriptions');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
  });

  it('subscribing twice returns the existing subscription, re-activated, not a duplicate', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    const first = await agent.post('/api/notification-subscriptions').send(roadmapSub);
    await t.database.pool.query('UPDATE notification_subscriptions SET is_active = false WHERE id = $1', [first.body.id]);
    const second = await agent.post('/api/notification-subscriptions').send(roadmapSub);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.isActive).toBe(true);
    expect((await agent.get('/api/notification-subscriptions')).body).toHaveLength(1);
  });

  it('lists newest first; message ids are matched case-insensitively and stored as the provider spells them', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    await agent.post('/api/notification-subscriptions').send(roadmapSub).expect(201);
    t.clock.advance(1000);
    const msg = await agent
      .post('/api/notification-subscriptions')
      .send({ ...roadmapSub, itemId: 'mc1000269', itemType: 'message_center', itemTitle: undefined });
    expect(msg.status).toBe(201);
    expect(msg.body).toMatchObject({ itemId: 'MC1000269', itemType: 'message_center', itemTitle: 'Teams: emoji shortcut' });
    const list = (await agent.get('/api/notification-subscriptions')).body;
    expect(list.map((s: { itemId: string }) => s.itemId)).toEqual(['MC1000269', '496594']);
  });

  it('404 for an item that does not exist; 400 naming bad fields', async () => {
    const { agent } = await signIn(t.app, t.database.db);
    expect((await agent.post('/api/notification-subscriptions').send({ ...roadmapSub, itemId: '1' })).status).toBe(404);
    // A roadmap id sent as a message is not found either.
    expect((await agent.post('/api/notification-subscriptions').send({ ...roadmapSub, itemType: 'message_center' })).status).toBe(404);
    for (const [body, field] of [
      [{ ...roadmapSub, subscriptionType: 'weekly_digest' }, 'subscriptionType'],
      [{ ...roadmapSub, itemType: 'blog' }, 'itemType'],
      [{ ...roadmapSub, itemId: '' }, 'itemId'],
      [{ ...roadmapSub, changeTypes: ['deleted'] }, 'changeTypes.0'],
    ] as const) {
      const res = await agent.post('/api/notification-subscriptions').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe(field);
    }
  });

  it('a user sees and deletes only their own', async () => {
    const alice = await signIn(t.app, t.database.db);
    const bob = await signIn(t.app, t.database.db);
    const aliceSub = (await alice.agent.post('/api/notification-subscriptions').send(roadmapSub)).body;
    expect((await bob.agent.get('/api/notification-subscriptions')).body).toEqual([]);
    expect((await bob.agent.delete(`/api/notification-subscriptions/${aliceSub.id}`)).status).toBe(404);
    expect((await alice.agent.get('/api/notification-subscriptions')).body).toHaveLength(1);
    const del = await alice.agent.delete(`/api/notification-subscriptions/${aliceSub.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, message: 'Subscription removed' });
    expect((await alice.agent.get('/api/notification-subscriptions')).body).toEqual([]);
    expect((await alice.agent.delete(`/api/notification-subscriptions/${aliceSub.id}`)).status).toBe(404);
    const bad = await alice.agent.delete('/api/notification-subscriptions/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('id');
  });
});
