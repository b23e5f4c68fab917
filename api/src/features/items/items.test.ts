import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertMessage, insertRoadmapItem, signIn } from '../../../test/factories.js';

// Fixed clock: 2026-02-07T12:00:00Z (test/context.ts).
let t: TestContext;
const d = (s: string) => new Date(s);

beforeAll(async () => {
  t = await createTestContext();
  const db = t.database.db;
  await insertRoadmapItem(db, {
    externalId: '500001',
    title: 'Microsoft Teams: Webinar co-organizers can edit details',
    description: '<div><span style="font-family:Segoe UI">Co-organizers can publish &amp; cancel webinars.</span></div>',
    status: 'In development',
    products: ['Microsoft Teams'],
    cloudInstances: ['Worldwide (Standard Multi-Tenant)', 'GCC'],
    createdDate: d('2026-02-06T23:15:00Z'),
    modifiedDate: d('2026-02-06T23:15:00Z'),
    firstSeenAt: d('2026-02-07T01:00:00Z'),
    lastChangedAt: d('2026-02-07T01:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '500002',
    title: 'Outlook: Copilot summaries in mail',
    description: 'Copilot summarizes long threads in Outlook.',
    status: 'Rolling out',
    products: ['Outlook', 'Microsoft Copilot (Microsoft 365)'],
    cloudInstances: ['GCC High', 'DoD'],
    createdDate: d('2025-12-01T00:00:00Z'),
    modifiedDate: d('2026-02-05T00:00:00Z'),
    firstSeenAt: d('2025-12-01T00:00:00Z'),
    lastChangedAt: d('2026-02-05T00:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '500003',
    title: 'SharePoint: Site templates refresh',
    description: 'New templates for communication sites.',
    status: 'Launched',
    products: ['SharePoint'],
    cloudInstances: ['Worldwide (Standard Multi-Tenant)'],
    createdDate: d('2025-01-10T00:00:00Z'),
    modifiedDate: d('2025-03-01T00:00:00Z'),
    isFeatured: true,
    featuredAt: d('2026-01-01T00:00:00Z'),
    moderatorNotes: 'roadmap secret note',
    moderatedBy: 'mod@example.com',
  });
  await insertRoadmapItem(db, {
    externalId: '500004',
    title: 'Microsoft Teams: Removed item',
    status: 'Launched',
    createdDate: d('2026-02-07T00:00:00Z'),
    isRemoved: true,
    removedAt: d('2026-02-07T00:00:00Z'),
  });
  await insertRoadmapItem(db, {
    externalId: '500005',
    title: 'Teams: Follow-up to MC1000269 emoji shortcuts',
    description: 'See MC1000269.',
    status: 'Cancelled',
    products: ['Microsoft Teams'],
    createdDate: d('2025-11-01T00:00:00Z'),
    modifiedDate: d('2025-11-02T00:00:00Z'),
  });
  await insertMessage(db, {
    externalId: 'MC1000269',
    title: '(Updated) Microsoft Teams: New keyboard shortcut for adding emojis',
    summary: 'Insert emojis by typing words surrounded by colons.',
    bodyHtml: '<p>Updated: timeline.</p>',
    tags: ['Updated message', 'New feature', 'User impact'],
    products: ['Microsoft Teams'],
    category: 'stayInformed',
    userImpact: true,
    adminImpact: false,
    createdDate: d('2026-01-20T10:00:00Z'),
    modifiedDate: d('2026-02-06T18:00:00Z'),
    firstSeenAt: d('2026-01-20T10:00:00Z'),
    lastChangedAt: d('2026-02-06T18:00:00Z'),
  });
  await insertMessage(db, {
    externalId: 'MC1143929',
    title: 'Certificate-based authentication changes on Windows domain controllers',
    summary: 'Certificate mapping enforcement begins.',
    bodyHtml:
      '<p onclick="alert(1)">Read <a href="https://learn.microsoft.com/x">docs</a> and <a href="javascript:alert(2)">this</a>.</p><script>alert(3)</script><img src="x" onerror="alert(4)">',
    tags: ['Admin impact'],
    products: ['Windows'],
    category: 'planForChange',
    isMajorChange: true,
    createdDate: d('2026-02-04T00:00:00Z'),
    modifiedDate: d('2026-02-04T00:00:00Z'),
    isFeatured: true,
    featuredAt: d('2026-02-01T00:00:00Z'),
    moderatorNotes: 'message secret note',
  });
  await insertMessage(db, {
    externalId: 'MC999973',
    title: 'Exchange Online: Retirement of legacy protocol',
    summary: 'Basic auth retirement.',
    tags: ['Retirement', 'Admin impact'],
    products: ['Exchange Online'],
    category: 'planForChange',
    createdDate: d('2025-10-01T00:00:00Z'),
    modifiedDate: d('2025-10-01T00:00:00Z'),
  });
});
afterAll(async () => {
  await t.close();
});

async function list(query: Record<string, string | number | boolean> = {}) {
  const res = await request(t.app).get('/api/unified/items').query(query);
  expect(res.status).toBe(200);
  return { ...res.body, ids: res.body.items.map((i: { itemId: string | null; messageId: string | null }) => i.itemId ?? i.messageId) as string[] };
}

describe('GET /api/unified/items: defaults and shape', () => {
  it('lists both sources newest created first, excluding removed items', async () => {
    const body = await list();
    expect(body.ids).toEqual(['500001', 'MC1143929', 'MC1000269', '500002', '500005', 'MC999973', '500003']);
    expect(body.total).toBe(7);
    expect(body.totalPages).toBe(1);
  });

  it('maps rows to unified items', async () => {
    const body = await list({ search: '500002' });
    const item = body.items[0];
    expect(item).toMatchObject({
      id: 'roadmap-500002',
      source: 'roadmap',
      itemId: '500002',
      messageId: null,
      status: 'Rolling out',
      product: 'Outlook, Microsoft Copilot (Microsoft 365)',
      service: null,
      cloudInstances: 'GCC High, DoD',
      releaseDate: 'March CY2026',
      createdDate: '2025-12-01T00:00:00.000Z',
      modifiedDate: '2026-02-05T00:00:00.000Z',
      publishedDate: null,
      isFeatured: false,
      thirdPartyLinks: [],
    });
    const msg = (await list({ search: 'MC1000269' })).items[0];
    expect(msg).toMatchObject({
      id: 'messages-MC1000269',
      source: 'messages',
      messageId: 'MC1000269',
      itemId: null,
      service: ['Microsoft Teams'],
      services: 'Microsoft Teams',
      product: null,
      publishedDate: '2026-01-20T10:00:00.000Z',
      lastUpdatedDate: '2026-02-06T18:00:00.000Z',
      userImpact: true,
    });
  });

  it('sanitises message bodies and HTML descriptions', async () => {
    const msg = (await list({ search: 'MC1143929' })).items[0];
    expect(msg.bodyContent).not.toMatch(/script|onclick|onerror|javascript:|alert\(3\)/i);
    expect(msg.bodyContent).toContain('<a href="https://learn.microsoft.com/x" target="_blank" rel="noopener noreferrer">docs</a>');
    const roadmap = (await list({ search: '500001' })).items[0];
    expect(roadmap.description).not.toContain('style=');
    expect(roadmap.description).toContain('Co-organizers can publish &amp; cancel webinars.');
    const plain = (await list({ search: '500002' })).items[0];
    expect(plain.description).toBe('Copilot summarizes long threads in Outlook.');
  });
});

describe('moderator notes', () => {
  it('are absent for guests and users, present for moderators and admins', async () => {
    const guest = await list({ featured: true });
    expect(guest.items).toHaveLength(2);
    for (const item of guest.items) expect(item).not.toHaveProperty('moderatorNotes');
    const { agent: userAgent } = await signIn(t.app, t.database.db, { roles: ['User'] });
    const asUser = await userAgent.get('/api/unified/items').query({ featured: true });
    for (const item of asUser.body.items) expect(item).not.toHaveProperty('moderatorNotes');
    expect(JSON.stringify(asUser.body)).not.toContain('secret note');
    expect(JSON.stringify(asUser.body)).not.toContain('mod@example.com');
    expect(asUser.body.items.find((i: { itemId: string }) => i.itemId === '500003').moderatedBy).toBe('moderator');
    for (const role of ['Moderator', 'Admin']) {
      const { agent } = await signIn(t.app, t.database.db, { roles: [role] });
      const res = await agent.get('/api/unified/items').query({ featured: true });
      expect(res.body.items.map((i: { moderatorNotes: string }) => i.moderatorNotes).sort()).toEqual(['message secret note', 'roadmap secret note']);
      expect(res.body.items.find((i: { itemId: string }) => i.itemId === '500003').moderatedBy).toBe('mod@example.com');
    }
  });
});

describe('filters', () => {
  it('sources', async () => {
    expect((await list({ sources: 'roadmap' })).ids).toEqual(['500001', '500002', '500005', '500003']);
    expect((await list({ sources: 'messages' })).ids).toEqual(['MC1143929', 'MC1000269', 'MC999973']);
    expect((await list({ sources: 'roadmap,messages' })).total).toBe(7);
  });

  it('products (overlap, across both sources; repeated keys work too)', async () => {
    expect((await list({ products: 'Microsoft Teams' })).ids).toEqual(['500001', 'MC1000269', '500005']);
    const res = await request(t.app).get('/api/unified/items?products=Windows&products=SharePoint');
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['messages-MC1143929', 'roadmap-500003']);
  });

  it('statuses (roadmap status or message category, case-insensitive)', async () => {
    expect((await list({ statuses: 'launched' })).ids).toEqual(['500003']);
    expect((await list({ statuses: 'planForChange,Rolling out' })).ids).toEqual(['MC1143929', '500002', 'MC999973']);
  });

  it('roadmapStatuses alone restricts to roadmap items (case-insensitive)', async () => {
    expect((await list({ roadmapStatuses: 'in development,LAUNCHED' })).ids).toEqual(['500001', '500003']);
  });

  it('messageCenterTags alone restricts to messages whose tags overlap', async () => {
    expect((await list({ messageCenterTags: 'Admin impact' })).ids).toEqual(['MC1143929', 'MC999973']);
    expect((await list({ messageCenterTags: 'User impact,Retirement' })).ids).toEqual(['MC1000269', 'MC999973']);
  });

  it('both: (roadmap AND status) OR (messages AND tags); sources restricts further', async () => {
    const both = { roadmapStatuses: 'Rolling out', messageCenterTags: 'Retirement' };
    expect((await list(both)).ids).toEqual(['500002', 'MC999973']);
    expect((await list({ ...both, sources: 'messages' })).ids).toEqual(['MC999973']);
    expect((await list({ ...both, sources: 'roadmap' })).ids).toEqual(['500002']);
  });

  it('cloudInstances (roadmap only; feed spelling or short label)', async () => {
    expect((await list({ cloudInstances: 'GCC' })).ids).toEqual(['500001']);
    expect((await list({ cloudInstances: 'Worldwide' })).ids).toEqual(['500001', '500005', '500003']);
    expect((await list({ cloudInstances: 'Worldwide (Standard Multi-Tenant),DoD' })).ids).toEqual(['500001', '500002', '500005', '500003']);
    expect((await list({ cloudInstances: 'dod', sources: 'messages' })).ids).toEqual([]);
  });

  it('featured and moderatorFeatured', async () => {
    expect((await list({ featured: true })).ids).toEqual(['MC1143929', '500003']);
    expect((await list({ moderatorFeatured: 'true' })).ids).toEqual(['MC1143929', '500003']);
    expect((await list({ featured: false })).total).toBe(7);
  });

  it('changeTypes new_* = created within N days', async () => {
    expect((await list({ changeTypes: 'new_1_day' })).ids).toEqual(['500001']);
    expect((await list({ changeTypes: 'new_7days' })).ids).toEqual(['500001', 'MC1143929']);
    expect((await list({ changeTypes: 'new_30days' })).ids).toEqual(['500001', 'MC1143929', 'MC1000269']);
  });

  it('changeTypes changed_* = a recorded change within N days, not new in that window, first import excluded', async () => {
    // 500001 was first seen (lastChangedAt = firstSeenAt) on 2026-02-07: its import is not a change.
    expect((await list({ changeTypes: 'changed_1_day' })).ids).toEqual(['MC1000269']);
    expect((await list({ changeTypes: 'changed_7days' })).ids).toEqual(['MC1000269', '500002']);
    // Within 30 days MC1000269 is new (published 2026-01-20), so it is not "changed" there.
    expect((await list({ changeTypes: 'changed_30days' })).ids).toEqual(['500002']);
  });

  it('one new and one changed option combine with OR', async () => {
    expect((await list({ changeTypes: 'new_1_day,changed_7days' })).ids).toEqual(['500001', 'MC1000269', '500002']);
  });

  it('timeline: last activity within the window; all = no restriction', async () => {
    expect((await list({ timeline: '7days' })).ids).toEqual(['500001', 'MC1143929', 'MC1000269', '500002']);
    expect((await list({ timeline: 'all' })).total).toBe(7);
  });

  it('combinations AND together', async () => {
    expect((await list({ products: 'Microsoft Teams', sources: 'roadmap', changeTypes: 'new_7days' })).ids).toEqual(['500001']);
    expect((await list({ featured: true, sources: 'roadmap' })).ids).toEqual(['500003']);
    expect((await list({ products: 'Windows', roadmapStatuses: 'Launched' })).ids).toEqual([]);
  });
});

describe('sort', () => {
  it('createdDate asc and desc', async () => {
    const desc = (await list({ sortField: 'createdDate', sortDirection: 'desc' })).ids;
    const asc = (await list({ sortField: 'createdDate', sortDirection: 'asc' })).ids;
    expect(asc).toEqual([...desc].reverse());
  });

  it('modifiedDate desc and asc', async () => {
    expect((await list({ sortField: 'modifiedDate' })).ids).toEqual(['500001', 'MC1000269', '500002', 'MC1143929', '500005', 'MC999973', '500003']);
    expect((await list({ sortField: 'modifiedDate', sortDirection: 'asc' })).ids).toEqual([
      '500003',
      'MC999973',
      '500005',
      'MC1143929',
      '500002',
      'MC1000269',
      '500001',
    ]);
  });
});

describe('search', () => {
  it('an exact id ranks first, case-insensitive, with or without the MC prefix', async () => {
    expect((await list({ search: 'MC1000269' })).ids).toEqual(['MC1000269', '500005']);
    expect((await list({ search: 'mc1000269' })).ids[0]).toBe('MC1000269');
    expect((await list({ search: '1000269' })).ids[0]).toBe('MC1000269');
    expect((await list({ search: '500003' })).ids).toEqual(['500003']);
  });

  it('the dashboard deep-link lookup: search={id}, sources, limit=50', async () => {
    expect((await list({ search: 'MC999973', sources: 'messages', limit: 50 })).ids[0]).toBe('MC999973');
    expect((await list({ search: '500005', sources: 'roadmap', limit: 50 })).ids).toEqual(['500005']);
  });

  it('words across title, description, summary and body (all words must match, stemmed)', async () => {
    expect((await list({ search: 'copilot summaries' })).ids).toEqual(['500002']);
    expect((await list({ search: 'webinars' })).ids).toEqual(['500001']);
    expect((await list({ search: 'colons' })).ids).toEqual(['MC1000269']);
    expect((await list({ search: 'timeline' })).ids).toEqual(['MC1000269']);
    expect((await list({ search: 'certificate windows' })).ids).toEqual(['MC1143929']);
    expect((await list({ search: 'nothing-like-this' })).total).toBe(0);
  });

  it('title matches rank above body-only matches', async () => {
    // "teams" is in the titles of 500001, 500005 and MC1000269.
    const ids = (await list({ search: 'teams' })).ids;
    expect(ids.slice(0, 3).sort()).toEqual(['500001', '500005', 'MC1000269']);
  });

  it('prefix matching on the last word while typing', async () => {
    expect((await list({ search: 'certif' })).ids).toEqual(['MC1143929']);
    expect((await list({ search: 'outlook copi' })).ids).toEqual(['500002']);
    expect((await list({ search: 'retire' })).ids).toEqual(['MC999973']);
    expect((await list({ search: 'shareP' })).ids).toEqual(['500003']);
    // A last word English does not index cannot be required: the other words decide.
    expect((await list({ search: 'summaries in' })).ids).toEqual(['500002']);
    expect((await list({ search: 'Copilot summaries in mail' })).ids).toEqual(['500002']);
  });

  it('pages rank as the full ranking of every match does, with or without something that could be an id', async () => {
    for (const search of ['teams', 'tea', 'exchange online', '1000269', 'MC1000269 teams']) {
      const listed: string[] = [];
      for (let page = 1; page <= 7; page++) listed.push(...(await list({ search, limit: 1, page })).ids);
      const csv = await request(t.app).get('/api/dashboard/export').query({ search });
      const exported = csv.text
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split(',')[0]);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed).toEqual(exported);
    }
  });

  it('punctuation and operators are harmless', async () => {
    expect((await list({ search: '!!! &&' })).total).toBe(7);
    expect((await list({ search: "copilot & | ! ( ) : * ' summaries" })).ids).toEqual(['500002']);
    expect((await list({ search: "o'reilly" })).total).toBe(0);
  });

  it('search combines with filters; words never find removed items (exact ids do: items.archive.test.ts)', async () => {
    expect((await list({ search: 'teams', sources: 'messages' })).ids).toEqual(['MC1000269']);
    expect((await list({ search: 'removed item' })).total).toBe(0);
    expect((await list({ search: '500004', sources: 'messages' })).total).toBe(0);
  });
});

describe('pagination and validation', () => {
  it('pages with the right total and totalPages', async () => {
    const p1 = await list({ limit: 3, page: 1 });
    const p3 = await list({ limit: 3, page: 3 });
    expect(p1.ids).toEqual(['500001', 'MC1143929', 'MC1000269']);
    expect(p3.ids).toEqual(['500003']);
    expect(p1.total).toBe(7);
    expect(p3.total).toBe(7);
    expect(p1.totalPages).toBe(3);
  });

  it('a page past the end is empty with the right total', async () => {
    const body = await list({ limit: 3, page: 9 });
    expect(body.items).toEqual([]);
    expect(body.total).toBe(7);
    expect(body.totalPages).toBe(3);
  });

  it.each([
    [{ limit: 1001 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ page: 0 }, 'page'],
    [{ sortField: 'title' }, 'sortField'],
    [{ sortDirection: 'up' }, 'sortDirection'],
    [{ sources: 'roadmap,blog' }, 'sources'],
    [{ changeTypes: 'new_2_days' }, 'changeTypes'],
    [{ changeTypes: 'new_1_day,new_7days' }, 'changeTypes'],
    [{ timeline: 'forever' }, 'timeline'],
    [{ featured: 'maybe' }, 'featured'],
    [{ moderatorFeatured: 'yes' }, 'moderatorFeatured'],
    [{ search: 'x'.repeat(201) }, 'search'],
  ])('%j is a 400 naming %s', async (query, field) => {
    const res = await request(t.app).get('/api/unified/items').query(query);
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('InputError');
    expect(res.body.error.message).toMatch(new RegExp(`^${field}(\\.\\d+)?: `));
    expect(res.body.error.issues[0].path.split('.')[0]).toBe(field);
  });

  it('accepts limit 1000', async () => {
    expect((await list({ limit: 1000 })).total).toBe(7);
  });
});

describe('row versions', () => {
  it('a row changed after it was listed is answered in its new version (serialised items are reused per row version)', async () => {
    const { id } = await insertRoadmapItem(t.database.db, {
      externalId: '500009',
      title: 'Planner: Version check',
      status: 'In development',
      createdDate: d('2024-01-01T00:00:00Z'),
    });
    const before = (await list({ search: '500009' })).items[0];
    expect(before).toMatchObject({ title: 'Planner: Version check', isFeatured: false });
    await t.database.pool.query(`UPDATE items SET title = 'Planner: Version checked', is_featured = true WHERE id = $1`, [id]);
    const after = (await list({ search: '500009' })).items[0];
    expect(after).toMatchObject({ title: 'Planner: Version checked', isFeatured: true });
    await t.database.pool.query('UPDATE items SET is_removed = true WHERE id = $1', [id]);
    expect((await list({ search: '500009' })).items[0]).toMatchObject({ isRemoved: true, title: 'Planner: Version checked' });
  });
});
