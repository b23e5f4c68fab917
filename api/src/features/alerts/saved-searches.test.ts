import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { SAVED_SEARCHES_PER_USER } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { signIn, signInWithRoles } from '../../../test/auth-helpers.js';

/** The saved-search and channel API: validation naming the field, ownership, limits, organisation scope. */
let t: TestContext;
let ada: string;
let bob: string;
let admin: string;
const webhookUrl = 'https://8.8.8.8/hooks/teams-abcd';

beforeAll(async () => {
  t = await createTestContext();
  ada = await signIn(t, 'ada@example.com');
  bob = await signIn(t, 'bob@example.com');
  admin = await signInWithRoles(t, 'root@example.com', ['Admin']);
  // The admin confirmed with a passkey (organisation channels and searches want a recent passkey proof).
  await t.database.pool.query(`UPDATE sessions SET factor_verified_at = '2100-01-01' WHERE user_id = (SELECT id FROM users WHERE email = 'root@example.com')`);
});
afterAll(() => t.close());

const post = (cookie: string, path: string, body: unknown) =>
  request(t.app)
    .post(path)
    .set('Cookie', cookie)
    .set('Sec-Fetch-Site', 'same-origin')
    .send(body as object);
const search = (extra: Record<string, unknown> = {}) => ({
  name: 'Teams Rooms',
  query: { search: 'Teams Rooms', products: ['Microsoft Teams'] },
  alertOn: ['new', 'changed'],
  ...extra,
});

describe('saved searches', () => {
  it('saves the list query as given and lists it for its owner only', async () => {
    const created = await post(
      ada,
      '/api/saved-searches',
      search({ query: { search: 'GCC High', cloudInstances: ['GCC High'], changeTypes: ['changed_7days'], sortField: 'modifiedDate' } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Teams Rooms',
      scope: 'personal',
      query: { search: 'GCC High', cloudInstances: ['GCC High'], changeTypes: ['changed_7days'], sortField: 'modifiedDate', sortDirection: 'desc' },
      alertOn: ['new', 'changed'],
      schedule: 'instant',
      hour: 8,
      timeZone: 'UTC',
      channelIds: [],
      paused: false,
    });
    const mine = await request(t.app).get('/api/saved-searches').set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    expect(mine.body.map((s: { id: number }) => s.id)).toContain(created.body.id);
    const theirs = await request(t.app).get('/api/saved-searches').set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin');
    expect(theirs.body).toEqual([]);
    expect((await request(t.app).get(`/api/saved-searches/${created.body.id}`).set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin')).status).toBe(404);
    expect(
      (await request(t.app).put(`/api/saved-searches/${created.body.id}`).set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin').send(search())).status,
    ).toBe(404);
    expect((await request(t.app).delete(`/api/saved-searches/${created.body.id}`).set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin')).status).toBe(404);
    expect((await request(t.app).get('/api/saved-searches')).status).toBe(401);
  });

  it('keeps the relevance levels and the relevance sort of the dashboard’s view', async () => {
    // The dashboard sends the list's own form (`relevance=high,medium`) or repeated keys; both are kept as a list.
    const created = await post(ada, '/api/saved-searches', search({ query: { relevance: 'high,medium', sortField: 'relevance' } }));
    expect(created.status).toBe(201);
    expect(created.body.query).toMatchObject({ relevance: ['high', 'medium'], sortField: 'relevance' });
    const read = await request(t.app).get(`/api/saved-searches/${created.body.id}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    expect(read.body.query).toMatchObject({ relevance: ['high', 'medium'], sortField: 'relevance' });
    const put = await request(t.app)
      .put(`/api/saved-searches/${created.body.id}`)
      .set('Cookie', ada)
      .set('Sec-Fetch-Site', 'same-origin')
      .send(search({ query: { relevance: ['low'] } }));
    expect(put.status).toBe(200);
    expect(put.body.query.relevance).toEqual(['low']);
    await request(t.app).delete(`/api/saved-searches/${created.body.id}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
  });

  it.each([
    [{ name: '' }, 'name', 'Search name is required'],
    [{ name: '   ' }, 'name', 'Search name is required'],
    [{ name: 'x'.repeat(101) }, 'name', 'Search name must be at most 100 characters'],
    [{ alertOn: [] }, 'alertOn', 'Choose at least one: new items, changed items, reached our tenant'],
    [{ alertOn: ['removed'] }, 'alertOn.0', "alertOn may hold 'new', 'changed' and 'reached_tenant'"],
    [{ schedule: 'hourly' }, 'schedule', "schedule must be 'instant', 'daily' or 'weekly'"],
    [{ hour: 24 }, 'hour', 'hour must be from 0 to 23'],
    [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'Time zone must be an IANA time zone such as Europe/Berlin or UTC'],
    [
      { query: { sinceLastVisit: true } },
      'query.sinceLastVisit',
      'sinceLastVisit cannot be part of a saved search: alerts already tell you what is new or changed',
    ],
    [{ query: { sortField: 'title' } }, 'query.sortField', undefined],
    [{ query: { changeTypes: ['new_1_day', 'new_7days'] } }, 'query.changeTypes', 'changeTypes may hold at most one new_* and one changed_* option'],
    [{ query: { relevance: ['urgent'] } }, 'query.relevance.0', 'relevance must be one of high, medium, low, unknown'],
    [{ query: { relevance: 'high,urgent' } }, 'query.relevance.1', 'relevance must be one of high, medium, low, unknown'],
    [{ query: { relevance: [] } }, 'query.relevance', 'relevance must name at least one level'],
  ])('refuses %j with a 400 naming %s', async (change, path, message) => {
    const res = await post(ada, '/api/saved-searches', { ...search(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe(path);
    if (message) expect(res.body.error.issues[0].message).toBe(message);
    expect(res.body.error.message.startsWith(`${path}: `)).toBe(true);
  });

  it('accepts 100-character names and trims them', async () => {
    const res = await post(ada, '/api/saved-searches', search({ name: `  ${'n'.repeat(100)}  ` }));
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('n'.repeat(100));
  });

  it(`allows at most ${SAVED_SEARCHES_PER_USER} per user`, async () => {
    const carol = await signIn(t, 'carol@example.com');
    for (let i = 0; i < SAVED_SEARCHES_PER_USER; i++) expect((await post(carol, '/api/saved-searches', search({ name: `S${i}` }))).status).toBe(201);
    const over = await post(carol, '/api/saved-searches', search({ name: 'one too many' }));
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe('You already have 50 saved searches: delete one you no longer need first');
  });

  it('renames, changes filters, pauses and deletes (a full replacement)', async () => {
    const { body } = await post(ada, '/api/saved-searches', search({ name: 'Old' }));
    const put = await request(t.app)
      .put(`/api/saved-searches/${body.id}`)
      .set('Cookie', ada)
      .set('Sec-Fetch-Site', 'same-origin')
      .send(
        search({
          name: 'New name',
          query: { roadmapStatuses: ['Rolling out'] },
          alertOn: ['changed'],
          schedule: 'weekly',
          weekday: 5,
          hour: 17,
          timeZone: 'Europe/Berlin',
          paused: true,
        }),
      );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      name: 'New name',
      query: { roadmapStatuses: ['Rolling out'] },
      alertOn: ['changed'],
      schedule: 'weekly',
      weekday: 5,
      hour: 17,
      timeZone: 'Europe/Berlin',
      paused: true,
    });
    expect(put.body.query.search).toBeUndefined();
    const del = await request(t.app).delete(`/api/saved-searches/${body.id}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin');
    expect(del.body).toEqual({ success: true, message: 'Saved search deleted' });
    expect((await request(t.app).get(`/api/saved-searches/${body.id}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).status).toBe(404);
  });

  it('sends only to channels of its own scope', async () => {
    const mine = await post(ada, '/api/alert-channels', { kind: 'teams', name: 'My Teams', url: webhookUrl });
    const org = await post(admin, '/api/alert-channels', { kind: 'teams', name: 'IT channel', url: webhookUrl, scope: 'organisation' });
    expect(org.status).toBe(201);
    expect((await post(ada, '/api/saved-searches', search({ channelIds: [mine.body.id] }))).status).toBe(201);
    const foreign = await post(bob, '/api/saved-searches', search({ channelIds: [mine.body.id] }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.issues[0]).toEqual({ path: 'channelIds.0', message: `Channel ${mine.body.id} is not one of your channels` });
    // Users never see organisation channels; admins cannot mix scopes.
    expect((await post(ada, '/api/saved-searches', search({ channelIds: [org.body.id] }))).body.error.issues[0].path).toBe('channelIds.0');
    const mixed = await post(admin, '/api/saved-searches', search({ scope: 'organisation', channelIds: [org.body.id, mine.body.id] }));
    expect(mixed.body.error.issues[0].path).toBe('channelIds.1');
    const orgSearch = await post(
      admin,
      '/api/saved-searches',
      search({ scope: 'organisation', name: 'All major changes', query: { messageCenterTags: ['Major change'] }, channelIds: [org.body.id] }),
    );
    expect(orgSearch.status).toBe(201);
    expect(orgSearch.body.scope).toBe('organisation');
    expect(
      (await request(t.app).get('/api/saved-searches').set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body.some(
        (s: { scope: string }) => s.scope === 'organisation',
      ),
    ).toBe(false);
    const other = await signInWithRoles(t, 'root2@example.com', ['Admin']);
    expect(
      (await request(t.app).get('/api/saved-searches').set('Cookie', other).set('Sec-Fetch-Site', 'same-origin')).body.map((s: { id: number }) => s.id),
    ).toContain(orgSearch.body.id);
    expect((await post(ada, '/api/saved-searches', search({ scope: 'organisation' }))).status).toBe(403);
    expect((await post(ada, '/api/alert-channels', { kind: 'slack', name: 'x', url: webhookUrl, scope: 'organisation' })).status).toBe(403);
  });
});

describe('alert channels', () => {
  it('check webhook URLs when saved: https only and no private or metadata addresses (400 naming url)', async () => {
    for (const [url, message] of [
      ['http://8.8.8.8/hook', 'Webhook URL must start with https://'],
      ['https://127.0.0.1/hook', 'Webhook URL host 127.0.0.1 cannot be used: it must be a public internet host'],
      ['https://169.254.169.254/latest/meta-data', 'Webhook URL host 169.254.169.254 cannot be used: it must be a public internet host'],
    ]) {
      const res = await post(ada, '/api/alert-channels', { kind: 'slack', name: 'Slack', url });
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0]).toEqual({ path: 'url', message });
    }
    for (const [body, path, message] of [
      [{ kind: 'teams', name: 'T' }, 'url', 'Webhook URL is required'],
      [{ kind: 'teams', name: '', url: webhookUrl }, 'name', 'Channel name is required'],
      [{ kind: 'pager', name: 'P', url: webhookUrl }, 'kind', "kind must be 'email', 'teams', 'slack' or 'webhook'"],
      [{ kind: 'email', name: 'E', url: webhookUrl }, 'url', 'An e-mail channel has no URL: alerts go to your account address'],
      [{ kind: 'webhook', name: 'W', url: 'not a url' }, 'url', 'Webhook URL must be a valid URL'],
    ] as const) {
      const res = await post(ada, '/api/alert-channels', body);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0]).toEqual({ path, message });
    }
    expect((await post(admin, '/api/alert-channels', { kind: 'email', name: 'E', scope: 'organisation' })).body.error.issues[0].path).toBe('kind');
  });

  it('stores URLs and secrets sealed, answers them masked, and shows a signing secret once', async () => {
    const url = 'https://8.8.8.8/hooks/customer/secret-path-XYZ9';
    const created = await post(ada, '/api/alert-channels', { kind: 'webhook', name: 'SIEM', url });
    expect(created.status).toBe(201);
    expect(created.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body.target).toBe('8.8.8.8 …XYZ9');
    const listed = (await request(t.app).get('/api/alert-channels').set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body.find(
      (c: { id: number }) => c.id === created.body.id,
    );
    expect(listed).toMatchObject({ kind: 'webhook', name: 'SIEM', target: '8.8.8.8 …XYZ9', paused: false, consecutiveFailures: 0 });
    expect(listed.signingSecret).toBeUndefined();
    const { rows } = await t.database.pool.query('select * from alert_channels where id = $1', [created.body.id]);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain('secret-path');
    expect(stored).not.toContain(created.body.signingSecret);
    expect(rows[0].url_sealed).toMatch(/^v1\./);
    expect(
      (await request(t.app).get('/api/alert-channels').set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin')).body.some(
        (c: { id: number }) => c.id === created.body.id,
      ),
    ).toBe(false);
  });

  it('has one e-mail channel per user, to the account address', async () => {
    const first = await post(bob, '/api/alert-channels', { kind: 'email', name: 'My e-mail' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ kind: 'email', target: 'bob@example.com' });
    const again = await post(bob, '/api/alert-channels', { kind: 'email', name: 'Again' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it('renames, pauses, resumes and deletes; another user gets 404', async () => {
    const { body } = await post(ada, '/api/alert-channels', { kind: 'slack', name: 'Slack', url: webhookUrl });
    const put = (cookie: string, patch: object) =>
      request(t.app).put(`/api/alert-channels/${body.id}`).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send(patch);
    expect((await put(bob, { paused: true })).status).toBe(404);
    expect((await put(ada, { name: 'Slack #it', paused: true })).body).toMatchObject({ name: 'Slack #it', paused: true, pausedReason: 'Paused by you' });
    expect((await put(ada, { paused: false })).body).toMatchObject({ paused: false, pausedReason: null, consecutiveFailures: 0 });
    expect((await request(t.app).get(`/api/alert-channels/${body.id}/deliveries`).set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin')).status).toBe(404);
    expect((await request(t.app).post(`/api/alert-channels/${body.id}/test`).set('Cookie', bob).set('Sec-Fetch-Site', 'same-origin')).status).toBe(404);
    expect((await request(t.app).delete(`/api/alert-channels/${body.id}`).set('Cookie', ada).set('Sec-Fetch-Site', 'same-origin')).body.message).toBe(
      'Alert channel deleted',
    );
  });
});
