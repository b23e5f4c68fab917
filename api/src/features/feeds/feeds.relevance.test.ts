import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { XMLParser } from 'fast-xml-parser';
import ICAL from 'ical.js';
import Parser from 'rss-parser';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, insertMessage, insertRoadmapItem, sessionCookieFor } from '../../../test/factories.js';
import { insertTenant, receivedBy } from '../../../test/tenant-fixtures.js';
import { itemRelevance } from '../../db/schema/index.js';
import { sessionCookieName } from '../../http/session-policy.js';

/**
 * Relevance in the feeds: a signed-in reader (a session or an API token) may filter a feed by it and reads each
 * entry's; a guest gets none and is refused the filter; the rendered feeds cached per view never cross readers.
 *
 * Contoso is public, Fabrikam private (the admin sees it, the user does not). 412345 (Teams): High for Contoso, Low for
 * Fabrikam. 412346 (Outlook): Low for Contoso, High for Fabrikam. 412347 (Planner): none. MC1000269, a post Contoso
 * received with a rollout window: Medium for Contoso.
 */
let t: TestContext;
let user: request.Agent;
let admin: request.Agent;
let token: string;
const REASON = {
  teams: '1,240 people used Teams in the last 30 days, 82 % of licensed users',
  teamsFabrikam: '3 people used Teams in the last 30 days, under 1 % of licensed users',
  outlook: 'Nobody used Outlook in the last 30 days (0 of 300 licensed users)',
  outlookFabrikam: '900 people used Outlook in the last 30 days, 90 % of licensed users',
  post: '120 people used Teams in the last 30 days, 40 % of licensed users',
};
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_URL: 'https://radar.example.com' }, { now: '2026-02-07T12:00:00Z' });
  const db = t.database.db;
  const contoso = (await insertTenant(db, { name: 'Contoso', visibility: 'public' })).id;
  const fabrikam = (await insertTenant(db, { name: 'Fabrikam', visibility: 'private' })).id;
  const teams = await insertRoadmapItem(db, {
    externalId: '412345',
    title: 'Microsoft Teams: meeting recap',
    description: 'Intelligent recap for every meeting.',
    products: ['Microsoft Teams'],
    releaseDate: 'March CY2026',
    previewDate: 'January CY2026',
    createdDate: new Date('2025-11-01T00:00:00Z'),
    modifiedDate: new Date('2026-02-05T08:00:00Z'),
  });
  const outlook = await insertRoadmapItem(db, {
    externalId: '412346',
    title: 'Outlook: new calendar view',
    description: 'A new calendar view.',
    products: ['Outlook'],
    releaseDate: 'June CY2026',
    createdDate: new Date('2026-02-01T00:00:00Z'),
    modifiedDate: new Date('2026-02-01T00:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '412347',
    title: 'Planner: new board',
    products: ['Planner'],
    releaseDate: 'April CY2026',
    createdDate: new Date('2026-01-15T00:00:00Z'),
    modifiedDate: new Date('2026-01-15T00:00:00Z'),
  });
  const post = await insertMessage(db, {
    externalId: 'MC1000269',
    title: 'Teams: emoji shortcut',
    summary: 'Type a colon to pick an emoji.',
    products: ['Microsoft Teams'],
    timing: [{ ring: 'general', label: 'mid-February 2026', start: '2026-02-11', end: '2026-02-20' }],
    timingStart: '2026-02-11',
    timingEnd: '2026-02-20',
    createdDate: new Date('2026-02-03T00:00:00Z'),
    modifiedDate: new Date('2026-02-04T00:00:00Z'),
  });
  await receivedBy(db, post.id, [contoso]);
  const row = (itemId: number, tenantId: number, level: number, reason: string) => ({ itemId, tenantId, level, reason, computedAt: t.clock.now() });
  await db
    .insert(itemRelevance)
    .values([
      row(teams.id, contoso, 3, REASON.teams),
      row(teams.id, fabrikam, 1, REASON.teamsFabrikam),
      row(outlook.id, contoso, 1, REASON.outlook),
      row(outlook.id, fabrikam, 3, REASON.outlookFabrikam),
      row(post.id, contoso, 2, REASON.post),
    ]);
  // PUBLIC_URL is https: the session cookie has that origin's name.
  const signedIn = async (roles: string[]) => {
    const cookie = await sessionCookieFor(db, (await createUser(db, { roles })).id, { cookieName: sessionCookieName(t.ctx.publicUrl) });
    return request.agent(t.app).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
  };
  user = await signedIn(['User']);
  admin = await signedIn(['Admin']);
  const created = await user.post('/api/tokens').set('Sec-Fetch-Site', 'same-origin').send({ name: 'feed reader' });
  if (created.status !== 201) throw new Error(`token not created: ${created.status} ${JSON.stringify(created.body)}`);
  token = created.body.token;
});

afterAll(async () => {
  await t.close();
});

const asText = (req: request.Test) =>
  req.buffer(true).parse((res, cb) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => cb(null, text));
  });
async function get(reader: request.Agent | null, path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const req = asText((reader ?? request(t.app)).get(path).query(query));
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  const res = await req;
  expect([path, res.status]).toEqual([path, 200]);
  return { res, text: res.body as string };
}
const rss = async (reader: request.Agent | null, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  new Parser<object, { categories?: string[] }>().parseString((await get(reader, '/api/feeds/items.rss', query, headers)).text);
/** Each entry as [link's item id, its description]. */
const entries = (feed: Awaited<ReturnType<typeof rss>>) => feed.items.map((i) => [i.link?.split('/').at(-1), i.contentSnippet]);

describe('a signed-in reader', () => {
  it('reads each entry’s relevance first in its description, in its content and as a category', async () => {
    const feed = await rss(user);
    expect(entries(feed)).toEqual([
      // One tenant to see (Contoso): the reason alone.
      ['412345', `Roadmap ID 412345. Relevance: High — ${REASON.teams}. Intelligent recap for every meeting.`],
      ['MC1000269', `MC1000269. Relevance: Medium — ${REASON.post}. Type a colon to pick an emoji.`],
      ['412346', `Roadmap ID 412346. Relevance: Low — ${REASON.outlook}. A new calendar view.`],
      ['412347', expect.not.stringContaining('Relevance')],
    ]);
    expect(feed.items[0]!.categories).toContain('Relevance: High');
    expect(feed.items[3]!.categories?.some((c) => c.startsWith('Relevance'))).toBe(false);
    expect((feed.items[0] as unknown as Record<string, string>)['content:encoded']).toMatch(
      /^<p>Relevance: High — 1,240 people used Teams in the last 30 days, 82 % of licensed users<\/p>/,
    );
  });

  it('filters by relevance like the list, and the title says so', async () => {
    const high = await rss(user, { relevance: 'high' });
    expect(high.title).toBe('M365 Radar: High relevance');
    expect(entries(high)).toEqual([['412345', `Roadmap ID 412345. Relevance: High — ${REASON.teams}. Intelligent recap for every meeting.`]]);
    expect(entries(await rss(user, { relevance: 'medium,low' })).map(([id]) => id)).toEqual(['MC1000269', '412346']);
  });

  it('with several tenants to see, names the tenant whose level it is', async () => {
    const text = (await get(admin, '/api/feeds/items.atom', { relevance: 'high' })).text;
    const feed = xml.parse(text).feed;
    const atom = [feed.entry].flat().map((e: Record<string, { '#text'?: string; '@href'?: string } & string>) => ({
      id: e.link['@href']?.split('/').at(-1),
      summary: e.summary['#text'] ?? e.summary,
      categories: [e.category].flat().map((c) => (c as unknown as Record<string, string>)['@term']),
    }));
    expect(atom.map((e) => [e.id, e.summary])).toEqual([
      ['412345', `Roadmap ID 412345. Relevance: High — Contoso: ${REASON.teams}. Intelligent recap for every meeting.`],
      ['412346', `Roadmap ID 412346. Relevance: High — Fabrikam: ${REASON.outlookFabrikam}. A new calendar view.`],
    ]);
    for (const entry of atom) expect(entry.categories).toContain('Relevance: High');
  });

  it('may use a personal API token, as a feed reader does', async () => {
    const feed = await rss(null, { relevance: 'high' }, { Authorization: `Bearer ${token}` });
    expect(entries(feed).map(([id]) => id)).toEqual(['412345']);
  });

  it('gets the release calendar with each event’s relevance in its description and categories', async () => {
    const { text } = await get(user, '/api/feeds/releases.ics');
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent').map((c) => ({
      uid: String(c.getFirstPropertyValue('uid')),
      description: String(c.getFirstPropertyValue('description')),
      categories: c.getAllProperties('categories').flatMap((p) => p.getValues().map(String)),
    }));
    const byUid = (uid: string) => events.find((e) => e.uid.startsWith(uid))!;
    expect(byUid('roadmap-412345-ga').description).toContain(`Relevance: High — ${REASON.teams}`);
    expect(byUid('roadmap-412345-preview').categories).toContain('Relevance: High');
    expect(byUid('messages-MC1000269-general').description).toContain(`Relevance: Medium — ${REASON.post}`);
    expect(byUid('messages-MC1000269-general').categories).toContain('Relevance: Medium');
    expect(byUid('roadmap-412347-ga').description).not.toContain('Relevance');
    const high = new ICAL.Component(ICAL.parse((await get(user, '/api/feeds/releases.ics', { relevance: 'high' })).text));
    expect(high.getAllSubcomponents('vevent').map((c) => String(c.getFirstPropertyValue('uid')).split('@')[0])).toEqual([
      'roadmap-412345-preview',
      'roadmap-412345-ga',
    ]);
  });
});

describe('a guest', () => {
  it('reads no relevance in any feed', async () => {
    for (const path of ['/api/feeds/items.rss', '/api/feeds/items.atom', '/api/feeds/releases.ics']) {
      expect((await get(null, path)).text).not.toMatch(/Relevance|people used/);
    }
  });

  it('is refused the relevance filter with a 401 that says how to sign in, in every feed', async () => {
    for (const path of ['/api/feeds/items.rss', '/api/feeds/items.atom', '/api/feeds/releases.ics']) {
      const res = await request(t.app).get(path).query({ relevance: 'high' });
      expect([path, res.status, res.body.error.message]).toEqual([
        path,
        401,
        'Sign in to filter by relevance: a feed reader sends a personal API token (Authorization: Bearer)',
      ]);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="M365 Radar"');
    }
  });

  it('has a bad level refused as a 400 naming the field, like the list', async () => {
    const res = await request(t.app).get('/api/feeds/items.rss').query({ relevance: 'urgent' });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].path).toBe('relevance.0');
  });
});

describe('the feed cache', () => {
  it('never serves one reader’s relevance to a reader of another scope, nor to a guest', async () => {
    // The same view, read first by the admin (both tenants), then by the user (Contoso only), then by a guest.
    const view = { products: 'Outlook' };
    const byAdmin = await get(admin, '/api/feeds/items.rss', view);
    expect(byAdmin.text).toContain(`Relevance: High — Fabrikam: ${REASON.outlookFabrikam}`);
    expect(byAdmin.res.headers['cache-control']).toBe('private, no-cache');

    const byUser = await get(user, '/api/feeds/items.rss', view);
    expect(byUser.text).toContain(`Relevance: Low — ${REASON.outlook}`);
    expect(byUser.text).not.toMatch(/Fabrikam|900 people/);
    expect(byUser.res.headers.etag).not.toBe(byAdmin.res.headers.etag);
    // The admin's validator is no good for the user's feed.
    expect(
      (
        await asText(
          user
            .get('/api/feeds/items.rss')
            .query(view)
            .set('If-None-Match', byAdmin.res.headers.etag as string),
        )
      ).status,
    ).toBe(200);

    const byGuest = await get(null, '/api/feeds/items.rss', view);
    expect(byGuest.text).not.toMatch(/Relevance|people used|Fabrikam/);
    expect(byGuest.res.headers['cache-control']).toBe('public, no-cache');

    // The user's token shares the user's scope: the same body, from the cache or not.
    const byToken = await get(null, '/api/feeds/items.rss', view, { Authorization: `Bearer ${token}` });
    expect(byToken.text).toBe(byUser.text);
  });

  it('shows a changed relevance at once (a written row moves the data version)', async () => {
    const before = await get(user, '/api/feeds/items.rss', { products: 'Planner' });
    expect(before.text).not.toContain('Relevance');
    await t.database.pool.query(
      `INSERT INTO item_relevance (item_id, tenant_id, level, reason, computed_at)
       SELECT i.id, t.id, 2, 'Planner is new here', now() FROM items i, tenants t WHERE i.external_id = '412347' AND t.name = 'Contoso'`,
    );
    const after = await get(user, '/api/feeds/items.rss', { products: 'Planner' });
    expect(after.text).toContain('Relevance: Medium — Planner is new here');
  });
});
