import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ICAL from 'ical.js';
import Parser from 'rss-parser';
import request from 'supertest';
import { items } from '../../db/schema/index.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { insertHistory, insertMessage, insertRoadmapItem } from '../../../test/factories.js';

let t: TestContext;
const BULK = 105;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

async function get(path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const req = request(t.app)
    .get(path)
    .query(query)
    .buffer(true)
    .parse((res, cb) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => cb(null, text));
    });
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  const res = await req;
  return { res, text: res.body as string };
}

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_URL: 'https://radar.example.com' }, { now: '2026-02-07T12:00:00Z' });
  // Old bulk items: the newest 100 by activity must not reach them.
  await t.database.pool.query(
    `INSERT INTO items (source, external_id, title, description, status, products, tags, created_date, modified_date, content_hash)
     SELECT 'roadmap', (600000 + g)::text, 'Bulk item ' || g, 'Bulk description ' || g, 'Launched', ARRAY['Planner'], ARRAY['Web'],
            timestamptz '2024-01-01' + g * interval '1 minute', timestamptz '2024-01-01' + g * interval '1 minute', 'bulk-' || g
     FROM generate_series(1, ${BULK}) AS g`,
  );
  const teams = await insertRoadmapItem(t.database.db, {
    externalId: '412345',
    title: 'Microsoft Teams: meeting recap <with markup>',
    description: 'Intelligent recap for every meeting & webinar.',
    status: 'Rolling out',
    products: ['Microsoft Teams'],
    releaseDate: 'March CY2026',
    previewDate: 'January CY2026',
    createdDate: new Date('2025-11-01T00:00:00Z'),
    modifiedDate: new Date('2026-02-05T08:00:00Z'),
  });
  await insertHistory(t.database.db, teams.id, {
    changeType: 'new',
    changeDate: new Date('2025-11-02T00:00:00Z'),
    newValues: { title: teams.title, status: 'In development' },
  });
  await insertHistory(t.database.db, teams.id, {
    changeType: 'changed',
    changeDate: new Date('2026-02-05T09:00:00Z'),
    changedFields: ['status', 'releaseDate'],
    previousValues: { status: 'In development', releaseDate: 'February CY2026' },
    newValues: { status: 'Rolling out', releaseDate: 'March CY2026' },
  });
  const outlook = await insertRoadmapItem(t.database.db, {
    externalId: '412346',
    title: 'Outlook: new calendar view',
    products: ['Outlook'],
    releaseDate: 'June CY2026',
    createdDate: new Date('2026-02-01T00:00:00Z'),
    modifiedDate: new Date('2026-02-01T00:00:00Z'),
  });
  await insertHistory(t.database.db, outlook.id, {
    changeType: 'new',
    changeDate: new Date('2026-02-01T06:00:00Z'),
    newValues: { title: outlook.title, status: 'In development', releaseDate: 'June CY2026', products: ['Outlook'] },
  });
  await insertRoadmapItem(t.database.db, {
    externalId: '412347',
    title: 'Quarter-only roadmap item',
    products: ['Planner'],
    releaseDate: 'Q2 CY2026',
    createdDate: new Date('2026-01-15T00:00:00Z'),
    modifiedDate: new Date('2026-01-15T00:00:00Z'),
  });
  await insertRoadmapItem(t.database.db, { externalId: '412399', title: 'Removed item', isRemoved: true, modifiedDate: new Date('2026-02-06T00:00:00Z') });
  await insertMessage(t.database.db, {
    externalId: 'MC1000269',
    title: 'Teams: emoji shortcut',
    summary: 'Type a colon to pick an emoji.',
    products: ['Microsoft Teams'],
    createdDate: new Date('2026-02-03T00:00:00Z'),
    modifiedDate: new Date('2026-02-04T00:00:00Z'),
  });
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/feeds/items.rss', () => {
  it('is valid RSS 2.0: the newest 100 items by last activity, each linking to its share link', async () => {
    const { res, text } = await get('/api/feeds/items.rss');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = xml.parse(text);
    expect(doc.rss['@version']).toBe('2.0');
    const channel = doc.rss.channel;
    expect(channel.title).toBe('M365 Radar: all items');
    expect(channel.link).toBe('https://radar.example.com/dashboard');
    expect(channel.description).toBeTruthy();

    const feed = await new Parser().parseString(text);
    expect(feed.items).toHaveLength(100);
    // Last activity order: modified 2026-02-05 (Teams), MC (02-04), Outlook (02-01), quarter item (01-15), then bulk.
    expect(feed.items.slice(0, 4).map((i) => i.link)).toEqual([
      'https://radar.example.com/roadmap/412345',
      'https://radar.example.com/message/MC1000269',
      'https://radar.example.com/roadmap/412346',
      'https://radar.example.com/roadmap/412347',
    ]);
    expect(feed.items.some((i) => i.link?.endsWith('/412399'))).toBe(false);
    expect(feed.items.at(-1)!.title).toBe(`Bulk item ${BULK - 100 + 4 + 1}`);
    for (const item of feed.items) {
      expect(item.title).toBeTruthy();
      expect(item.guid).toBeTruthy();
      expect(Number.isNaN(Date.parse(item.pubDate!))).toBe(false);
    }
    const teams = feed.items[0]!;
    expect(teams.title).toBe('Updated: Microsoft Teams: meeting recap <with markup>');
    expect(new Date(teams.pubDate!).toISOString()).toBe('2026-02-05T08:00:00.000Z');
    // The guid names the item's latest version, so a reader shows the item again when it changes.
    expect(teams.guid).toMatch(/^https:\/\/radar\.example\.com\/roadmap\/412345#change-\d+$/);
    const content = (teams as unknown as Record<string, string>)['content:encoded'];
    expect(content).toContain('<li>Status: In development → Rolling out</li>');
    expect(content).toContain('<li>Release date: February CY2026 → March CY2026</li>');
    expect(content).toContain('<a href="https://radar.example.com/roadmap/412345">Open in M365 Radar</a>');
    expect(content).toContain('<p>Updated on Feb 5, 2026</p>');
    expect(teams.contentSnippet).toBe('Roadmap ID 412345. Intelligent recap for every meeting & webinar.');
    expect(feed.items[2]!.title).toBe('Outlook: new calendar view');
    expect((feed.items[2] as unknown as Record<string, string>)['content:encoded']).toContain('<li>Release date: June CY2026</li>');
  });

  it('takes the list filters and says so in its title', async () => {
    const teams = await new Parser().parseString((await get('/api/feeds/items.rss', { products: 'Microsoft Teams' })).text);
    expect(teams.title).toBe('M365 Radar: Microsoft Teams');
    expect(teams.items.map((i) => i.link)).toEqual(['https://radar.example.com/roadmap/412345', 'https://radar.example.com/message/MC1000269']);
    const messages = await new Parser().parseString((await get('/api/feeds/items.rss', { sources: 'messages', search: 'emoji' })).text);
    expect(messages.items.map((i) => i.guid)).toEqual(['https://radar.example.com/message/MC1000269']);
    expect(messages.title).toBe('M365 Radar: Message Center · “emoji”');
    const recent = await new Parser().parseString((await get('/api/feeds/items.rss', { changeTypes: 'new_7days' })).text);
    expect(recent.title).toBe('M365 Radar: new in the last 7 days');
    expect(recent.items.map((i) => i.link)).toEqual(['https://radar.example.com/message/MC1000269', 'https://radar.example.com/roadmap/412346']);
  });

  it.each([
    [{ sortField: 'nope' }, 'sortField'],
    [{ changeTypes: 'new_1_day,new_7days' }, 'changeTypes'],
    [{ sources: 'roadmap,bogus' }, 'sources.1'],
    [{ timeline: 'forever' }, 'timeline'],
    [{ sinceLastVisit: 'true' }, 'sinceLastVisit'],
  ])('answers 400 naming the field for %j', async (query, path) => {
    for (const feed of ['/api/feeds/items.rss', '/api/feeds/items.atom', '/api/feeds/releases.ics']) {
      const res = await request(t.app).get(feed).query(query);
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe(path);
      expect(res.body.error.message.startsWith(`${path}:`)).toBe(true);
    }
  });
});

describe('GET /api/feeds/items.atom', () => {
  it('is valid Atom 1.0 with ids, dates, links and html content', async () => {
    const { res, text } = await get('/api/feeds/items.atom', { products: 'Microsoft Teams' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(XMLValidator.validate(text)).toBe(true);
    const feed = xml.parse(text).feed;
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe('https://radar.example.com/api/feeds/items.atom?products=Microsoft+Teams');
    expect(feed.title).toBe('M365 Radar: Microsoft Teams');
    expect(feed.updated).toBe('2026-02-05T08:00:00.000Z');
    const self = [feed.link].flat().find((l: Record<string, string>) => l['@rel'] === 'self');
    expect(self['@href']).toBe('https://radar.example.com/api/feeds/items.atom?products=Microsoft+Teams');
    const entries = [feed.entry].flat();
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry.id).toBeTruthy();
      expect(entry.title['#text'] ?? entry.title).toBeTruthy();
      expect(Number.isNaN(Date.parse(entry.updated))).toBe(false);
    }
    expect(entries[0].link['@href']).toBe('https://radar.example.com/roadmap/412345');
    expect(entries[0].content['@type']).toBe('html');
    expect(entries[0].content['#text']).toContain('Status: In development → Rolling out');
    expect(entries[1].id).toBe('https://radar.example.com/message/MC1000269');
    const parsed = await new Parser().parseString(text);
    expect(parsed.items.map((i) => i.link)).toEqual(['https://radar.example.com/roadmap/412345', 'https://radar.example.com/message/MC1000269']);
  });
});

describe('caching: ETag, Last-Modified and 304 per view and data version', () => {
  it('answers 304 to a matching If-None-Match or If-Modified-Since, and 200 once the view changed', async () => {
    const query = { products: 'Outlook' };
    const first = await get('/api/feeds/items.atom', query);
    const etag = first.res.headers.etag as string;
    const lastModified = first.res.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false);
    expect(first.res.headers['cache-control']).toBe('public, no-cache');

    const again = await get('/api/feeds/items.atom', query, { 'If-None-Match': etag });
    expect(again.res.status).toBe(304);
    expect(again.text).toBe('');
    expect((await get('/api/feeds/items.atom', query, { 'If-Modified-Since': lastModified })).res.status).toBe(304);
    expect((await get('/api/feeds/items.atom', query, { 'If-None-Match': '"something-else"' })).res.status).toBe(200);
    // The same view spelled differently (sort, page) is the same feed.
    expect((await get('/api/feeds/items.atom', { ...query, sortField: 'modifiedDate', page: '3' }, { 'If-None-Match': etag })).res.status).toBe(304);

    // A write elsewhere moves the data version; this view's bytes are the same, so its validator still matches.
    await insertRoadmapItem(t.database.db, { externalId: '499001', title: 'Unrelated', products: ['Planner'] });
    expect((await get('/api/feeds/items.atom', query, { 'If-None-Match': etag })).res.status).toBe(304);
    const afterUnrelated = await get('/api/feeds/items.atom', query);
    expect(new Date(afterUnrelated.res.headers['last-modified'] as string).getTime()).toBeGreaterThanOrEqual(new Date(lastModified).getTime());

    // A change to an item of the view (a moderation-style write) gives new bytes and a new ETag.
    await t.database.db.update(items).set({ title: 'Outlook: new calendar view (renamed)' }).where(eq(items.externalId, '412346'));
    const changed = await get('/api/feeds/items.atom', query, { 'If-None-Match': etag });
    expect(changed.res.status).toBe(200);
    expect(changed.text).toContain('Outlook: new calendar view (renamed)');
    expect(changed.res.headers.etag).not.toBe(etag);
    expect((await get('/api/feeds/items.rss', query, { 'If-None-Match': changed.res.headers.etag as string })).res.status).toBe(200);
  });

  it('gives the same bytes and ETag for the same data in another process (no generation time in the body)', async () => {
    const a = await get('/api/feeds/items.rss', { products: 'Microsoft Teams' });
    const other = await createTestContext({ PUBLIC_URL: 'https://radar.example.com' }, { now: '2026-02-07T13:00:00Z' });
    try {
      // Same database, new app: an empty cache.
      const app2 = (await import('../../app.js')).createApp({ ...other.ctx, db: t.database.db, pool: t.database.pool });
      const b = await request(app2).get('/api/feeds/items.rss').query({ products: 'Microsoft Teams' });
      expect(b.headers.etag).toBe(a.res.headers.etag);
      expect(b.text).toBe(a.text);
    } finally {
      await other.close();
    }
  });
});

interface CalendarEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  isDate: boolean;
  sequence: number;
  url: string;
  transp: string;
  description: string;
}

function parseCalendar(text: string): { calendar: ICAL.Component; events: CalendarEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    return {
      uid: e.uid,
      summary: e.summary,
      start: e.startDate.toString(),
      end: e.endDate.toString(),
      isDate: e.startDate.isDate,
      sequence: e.sequence,
      url: String(c.getFirstPropertyValue('url')),
      transp: String(c.getFirstPropertyValue('transp')),
      description: e.description,
    };
  });
  return { calendar, events };
}

describe('GET /api/feeds/releases.ics', () => {
  it('is an iCalendar with an all-day event per GA and preview month, stable UIDs and links', async () => {
    const { res, text } = await get('/api/feeds/releases.ics', { products: 'Microsoft Teams,Outlook' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    const { calendar, events } = parseCalendar(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//M365 Radar//Release calendar//EN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(events.map((e) => [e.uid, e.summary, e.start, e.end])).toEqual([
      ['roadmap-412345-preview@radar.example.com', 'Preview: Microsoft Teams: meeting recap <with markup>', '2026-01-01', '2026-01-02'],
      ['roadmap-412345-ga@radar.example.com', 'GA: Microsoft Teams: meeting recap <with markup>', '2026-03-01', '2026-03-02'],
      ['roadmap-412346-ga@radar.example.com', expect.stringMatching(/^GA: Outlook: new calendar view/), '2026-06-01', '2026-06-02'],
    ]);
    for (const e of events) {
      expect(e.isDate).toBe(true);
      expect(e.transp).toBe('TRANSPARENT');
      expect(e.url).toMatch(/^https:\/\/radar\.example\.com\/roadmap\/41234\d$/);
      expect(e.description).toContain('Microsoft gives the month only');
    }
    // The GA date of 412345 moved once (February → March): SEQUENCE 1; nothing else moved.
    expect(events.map((e) => e.sequence)).toEqual([0, 1, 0]);
  });

  it('leaves out Message Center posts without rollout windows and dates without a month, and bumps SEQUENCE when a date moves', async () => {
    const before = parseCalendar((await get('/api/feeds/releases.ics')).text).events;
    expect(before.some((e) => e.uid.includes('412347'))).toBe(false);
    expect(before.some((e) => e.uid.toLowerCase().includes('mc'))).toBe(false);
    const outlookBefore = before.find((e) => e.uid === 'roadmap-412346-ga@radar.example.com')!;

    const [row] = await t.database.db.select().from(items).where(eq(items.externalId, '412346'));
    await t.database.db.transaction(async (tx) => {
      await tx.update(items).set({ releaseDate: 'August CY2026' }).where(eq(items.id, row!.id));
      await insertHistory(tx as never, row!.id, {
        changeType: 'changed',
        changeDate: new Date('2026-02-07T06:00:00Z'),
        changedFields: ['releaseDate'],
        previousValues: { releaseDate: 'June CY2026' },
        newValues: { releaseDate: 'August CY2026' },
      });
    });
    const after = parseCalendar((await get('/api/feeds/releases.ics')).text).events.find((e) => e.uid === outlookBefore.uid)!;
    expect(after.start).toBe('2026-08-01');
    expect(after.sequence).toBe(outlookBefore.sequence + 1);
  });

  it('supports conditional requests like the item feeds', async () => {
    const first = await get('/api/feeds/releases.ics', { sources: 'roadmap' });
    const second = await get('/api/feeds/releases.ics', { sources: 'roadmap' }, { 'If-None-Match': first.res.headers.etag as string });
    expect(second.res.status).toBe(304);
  });
});
