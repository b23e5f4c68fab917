import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { getItem, insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';

let t: TestContext;
let roadmapRowId: number;
let messageRowId: number;

const update = {
  isFeatured: true,
  thirdPartyLinks: [{ title: 'Deep dive', url: 'https://blog.example.com/teams', type: 'blog', description: 'A walkthrough' }],
  moderatorNotes: 'Check with the Teams admins first',
};

// Every test starts from its own database with the two items unmoderated, so none depends on another's saves.
beforeEach(async () => {
  t = await createTestContext();
  roadmapRowId = (await insertRoadmapItem(t.database.db, { externalId: '496594', title: 'Microsoft 365 Apps: Cloud Update' })).id;
  messageRowId = (await insertMessage(t.database.db, { externalId: 'MC1000269', title: 'Teams: emoji shortcut' })).id;
});
afterEach(async () => {
  await t.close();
});

describe('PUT /api/moderator/roadmap/{itemId} and /message/{messageId}', () => {
  it('401 for guests, 403 for plain users', async () => {
    expect((await request(t.app).put('/api/moderator/roadmap/496594').send(update)).status).toBe(401);
    expect((await request(t.app).put('/api/moderator/message/MC1000269').send(update)).status).toBe(401);
    const { agent } = await signIn(t.app, t.database.db, { roles: ['User'] });
    expect((await agent.put('/api/moderator/roadmap/496594').send(update)).status).toBe(403);
    const { agent: noRoles } = await signIn(t.app, t.database.db);
    expect((await noRoles.put('/api/moderator/message/MC1000269').send(update)).status).toBe(403);
    expect((await getItem(t.database.db, roadmapRowId))!.isFeatured).toBe(false);
  });

  it('a moderator features a roadmap item: curation columns set, answer carries the item with notes', async () => {
    const { user, agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'], email: 'mod@example.com' });
    const before = await getItem(t.database.db, roadmapRowId);
    const res = await agent.put('/api/moderator/roadmap/496594').send(update);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Moderation settings updated successfully');
    expect(res.body.item).toMatchObject({
      id: 'roadmap-496594',
      isFeatured: true,
      moderatorNotes: 'Check with the Teams admins first',
      moderatedBy: user.email,
      thirdPartyLinks: [{ title: 'Deep dive', url: 'https://blog.example.com/teams', type: 'blog', description: 'A walkthrough' }],
    });
    const row = (await getItem(t.database.db, roadmapRowId))!;
    expect(row.featuredAt?.toISOString()).toBe('2026-02-07T12:00:00.000Z');
    expect(row.moderatedAt?.toISOString()).toBe('2026-02-07T12:00:00.000Z');
    // Feed columns untouched.
    expect({
      ...row,
      isFeatured: false,
      featuredAt: null,
      thirdPartyLinks: [],
      moderatorNotes: null,
      moderatedBy: null,
      moderatedAt: null,
      searchVector: null,
    }).toEqual({
      ...before,
      searchVector: null,
    });
  });

  it('keeps featuredAt while still featured, clears it when unfeatured; empty notes become null', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    await agent.put('/api/moderator/roadmap/496594').send(update).expect(200);
    t.clock.advance(60_000);
    await agent
      .put('/api/moderator/roadmap/496594')
      .send({ ...update, moderatorNotes: 'changed' })
      .expect(200);
    expect((await getItem(t.database.db, roadmapRowId))!.featuredAt?.toISOString()).toBe('2026-02-07T12:00:00.000Z');
    const res = await agent.put('/api/moderator/roadmap/496594').send({ isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' });
    expect(res.status).toBe(200);
    const row = (await getItem(t.database.db, roadmapRowId))!;
    expect(row).toMatchObject({ isFeatured: false, featuredAt: null, moderatorNotes: null, thirdPartyLinks: [] });
  });

  it('an admin moderates a message (id case-insensitive); unknown ids are 404', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    const res = await agent.put('/api/moderator/message/mc1000269').send(update);
    expect(res.status).toBe(200);
    expect(res.body.item.messageId).toBe('MC1000269');
    expect((await getItem(t.database.db, messageRowId))!.isFeatured).toBe(true);
    expect((await agent.put('/api/moderator/message/MC404').send(update)).status).toBe(404);
    expect((await agent.put('/api/moderator/roadmap/404').send(update)).status).toBe(404);
    // A roadmap id is not a message id.
    expect((await agent.put('/api/moderator/roadmap/MC1000269').send(update)).status).toBe(404);
  });

  it.each([
    [{ ...update, isFeatured: 'yes' }, 'isFeatured'],
    [{ ...update, thirdPartyLinks: [{ title: 'x', url: 'javascript:alert(1)', type: 'blog' }] }, 'thirdPartyLinks.0.url'],
    [{ ...update, thirdPartyLinks: [{ title: 'x', url: 'ftp://files.example.com', type: 'blog' }] }, 'thirdPartyLinks.0.url'],
    [{ ...update, thirdPartyLinks: [{ title: 'x', url: 'https://ok.example.com', type: 'podcast' }] }, 'thirdPartyLinks.0.type'],
    [{ ...update, thirdPartyLinks: [{ title: '', url: 'https://ok.example.com' }] }, 'thirdPartyLinks.0.title'],
    [{ isFeatured: true }, 'thirdPartyLinks'],
  ])('rejects %j naming %s', async (body, field) => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const res = await agent.put('/api/moderator/roadmap/496594').send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe(field);
  });

  it('link type defaults to other', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const res = await agent
      .put('/api/moderator/roadmap/496594')
      .send({ isFeatured: false, thirdPartyLinks: [{ title: 'Docs', url: 'http://docs.example.com' }], moderatorNotes: '' });
    expect(res.body.item.thirdPartyLinks).toEqual([{ title: 'Docs', url: 'http://docs.example.com', type: 'other' }]);
  });
});

describe('POST /api/moderator-activity', () => {
  const activity = {
    userId: 999,
    userEmail: 'spoofed@example.com',
    actionType: 'featured',
    itemType: 'roadmap',
    itemId: '496594',
    itemTitle: 'Microsoft 365 Apps: Cloud Update',
    details: { isFeatured: true },
  };

  it('401 for guests, 403 for users', async () => {
    expect((await request(t.app).post('/api/moderator-activity').send(activity)).status).toBe(401);
    const { agent } = await signIn(t.app, t.database.db, { roles: ['User'] });
    expect((await agent.post('/api/moderator-activity').send(activity)).status).toBe(403);
  });

  it('records the action with the session user, not the body user', async () => {
    const { user, agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const res = await agent.post('/api/moderator-activity').send(activity);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: user.id,
      userEmail: user.email,
      actionType: 'featured',
      itemType: 'roadmap',
      itemId: '496594',
      details: { isFeatured: true },
      timestamp: expect.stringMatching(/^2026-02-07T12:0/),
    });
    const { rows } = await t.database.pool.query(`SELECT user_id, user_email FROM moderator_activities WHERE recorded_by = 'client'`);
    expect(rows).toEqual([{ user_id: user.id, user_email: user.email }]);
  });

  it('accepts every moderator action type and rejects others', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Admin'] });
    for (const actionType of ['featured', 'unfeatured', 'link_added', 'link_removed', 'note_added', 'note_updated', 'note_removed']) {
      expect((await agent.post('/api/moderator-activity').send({ ...activity, actionType })).status).toBe(201);
    }
    const bad = await agent.post('/api/moderator-activity').send({ ...activity, actionType: 'deleted' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('actionType');
    const badType = await agent.post('/api/moderator-activity').send({ ...activity, itemType: 'messages' });
    expect(badType.body.error.issues[0].path).toBe('itemType');
  });
});

describe('audit written by the server', () => {
  const activities = async (itemId: string) =>
    (
      await t.database.pool.query(
        `SELECT user_email, action_type, item_type, item_title, details, recorded_by FROM moderator_activities WHERE item_id = $1 ORDER BY id`,
        [itemId],
      )
    ).rows;
  const link = (title: string, url: string) => ({ title, url, type: 'blog' as const });

  it('records each change of a save with the moderator action types, and nothing for unchanged fields', async () => {
    await insertRoadmapItem(t.database.db, { externalId: '880001', title: 'Audited item' });
    const { user, agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const a = link('A', 'https://a.example.com');
    const b = link('B', 'https://b.example.com');
    await agent
      .put('/api/moderator/roadmap/880001')
      .send({ isFeatured: true, thirdPartyLinks: [a], moderatorNotes: 'first' })
      .expect(200);
    expect((await activities('880001')).map((r) => r.action_type)).toEqual(['featured', 'link_added', 'note_added']);
    const [featured] = await activities('880001');
    expect(featured).toEqual({
      user_email: user.email,
      action_type: 'featured',
      item_type: 'roadmap',
      item_title: 'Audited item',
      details: { isFeatured: true },
      recorded_by: 'server',
    });
    // The same state again: nothing changed, nothing recorded.
    await agent
      .put('/api/moderator/roadmap/880001')
      .send({ isFeatured: true, thirdPartyLinks: [a], moderatorNotes: 'first' })
      .expect(200);
    expect(await activities('880001')).toHaveLength(3);
    await agent
      .put('/api/moderator/roadmap/880001')
      .send({ isFeatured: false, thirdPartyLinks: [b], moderatorNotes: 'second' })
      .expect(200);
    expect((await activities('880001')).slice(3).map((r) => [r.action_type, r.details])).toEqual([
      ['unfeatured', { isFeatured: false }],
      ['link_added', { link: b }],
      ['link_removed', { link: a }],
      ['note_updated', { previousNote: 'first', note: 'second' }],
    ]);
    await agent
      .put('/api/moderator/roadmap/880001')
      .send({ isFeatured: false, thirdPartyLinks: [b], moderatorNotes: '   ' })
      .expect(200);
    expect((await activities('880001')).slice(7).map((r) => r.action_type)).toEqual(['note_removed']);
    // Previous note empty and the new one still empty: no record.
    await agent
      .put('/api/moderator/roadmap/880001')
      .send({ isFeatured: false, thirdPartyLinks: [b], moderatorNotes: '' })
      .expect(200);
    expect(await activities('880001')).toHaveLength(8);
  });

  it('writes nothing when the save fails, and answers the client record of a save with the server row', async () => {
    await insertMessage(t.database.db, { externalId: 'MC880002', title: 'Audited message' });
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const bad = await agent.put('/api/moderator/message/MC880002').send({ isFeatured: 'yes', thirdPartyLinks: [] });
    expect(bad.status).toBe(400);
    expect(await activities('MC880002')).toEqual([]);
    await agent.put('/api/moderator/message/mc880002').send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: 'n' }).expect(200);
    const serverRows = await activities('MC880002');
    expect(serverRows.map((r) => [r.action_type, r.item_type])).toEqual([
      ['featured', 'message_center'],
      ['note_added', 'message_center'],
    ]);
    // The dialog posts one record after the save: it gets the server's row back and writes nothing.
    const posted = { actionType: 'note_added', itemType: 'message_center', itemId: 'MC880002', itemTitle: 'Audited message', details: { x: 1 } };
    const echo = await agent.post('/api/moderator-activity').send(posted);
    expect(echo.status).toBe(200);
    expect(echo.body).toMatchObject({ actionType: 'note_added', itemId: 'MC880002', details: { previousNote: null, note: 'n' } });
    // A record of another type for the same save also answers the server's record.
    expect((await agent.post('/api/moderator-activity').send({ ...posted, actionType: 'link_added' })).status).toBe(200);
    expect(await activities('MC880002')).toHaveLength(2);
    // Long after the save, a record is the client's own.
    t.clock.advance(3 * 60_000);
    const late = await agent.post('/api/moderator-activity').send(posted);
    expect(late.status).toBe(201);
    expect((await activities('MC880002')).map((r) => r.recorded_by)).toEqual(['server', 'server', 'client']);
  });

  it('bounds the details of a posted record', async () => {
    const { agent } = await signIn(t.app, t.database.db, { roles: ['Moderator'] });
    const res = await agent
      .post('/api/moderator-activity')
      .send({ actionType: 'featured', itemType: 'roadmap', itemId: '496594', details: { blob: 'x'.repeat(3000) } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0]).toEqual({ path: 'details', message: 'details must be at most 2000 characters as JSON' });
    const huge = await agent
      .post('/api/moderator-activity')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ actionType: 'featured', itemType: 'roadmap', itemId: '496594', details: 'x'.repeat(20_000) }));
    expect(huge.status).toBe(413);
  });
});
