import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import request from 'supertest';
import { ROLE_NAMES, type ItemListResponse } from '@radar/contracts';
import { createApp } from '../../app.js';
import { connectDatabase, type Database } from '../../db/client.js';
import { dashboardVisits } from '../../db/schema/index.js';
import { createServices } from '../../services.js';
import type { RoadmapRecord } from '../../sources/types.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { sessionCookieFor, signIn } from '../../../test/factories.js';
import { rawRequest } from '../../../test/raw-http.js';

/**
 * The list's caches (whole answers, totals, per-row JSON) are keyed by the data version, the time bucket and the
 * audience: a total and a page are right immediately after a sync or a moderation change, in this app and in a
 * second app instance on the same database (another process in production), and staff-only fields never reach
 * anyone else. `limit=2` keeps the pages full, so every total is counted (and cached), not read off a short page.
 */

// Fixed clock: 2026-02-07T12:00:00Z (test/context.ts).
let t: TestContext;
let other: Database;
let appB: Express;
const d = (s: string) => new Date(s);

function roadmapRecord(itemId: number, createdDate: string, overrides: Partial<RoadmapRecord> = {}): RoadmapRecord {
  return {
    itemId,
    title: `Microsoft Teams: feature ${itemId}`,
    description: `<p>Feature ${itemId} for meetings.</p>`,
    moreInfoLink: null,
    releaseDate: 'March CY2026',
    previewDate: null,
    status: 'In development',
    products: ['Microsoft Teams'],
    cloudInstances: ['Worldwide (Standard Multi-Tenant)'],
    platforms: ['Web'],
    releasePhase: ['General Availability'],
    tags: [],
    createdDate: new Date(createdDate),
    modifiedDate: new Date(createdDate),
    ...overrides,
  };
}

const feed: RoadmapRecord[] = [
  roadmapRecord(700001, '2025-10-01T00:00:00Z'),
  roadmapRecord(700002, '2025-11-01T00:00:00Z'),
  roadmapRecord(700003, '2025-12-01T00:00:00Z'),
  roadmapRecord(700004, '2026-01-01T00:00:00Z'),
  // New in the last 7 days at the test clock, and still new in the last day for a few minutes more.
  roadmapRecord(700005, '2026-02-06T12:05:00Z'),
];

const list = async (app: Express, query: string, cookie?: string): Promise<ItemListResponse> => {
  const req = request(app).get(`/api/unified/items?${query}`);
  const res = await (cookie ? req.set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin') : req).expect(200);
  return res.body as ItemListResponse;
};
const ids = (r: ItemListResponse) => r.items.map((i) => i.id);
/** Both instances answer, twice each, so the second answer of each comes from its caches. */
async function bothTwice(query: string, cookie?: string): Promise<ItemListResponse[]> {
  const answers: ItemListResponse[] = [];
  for (const app of [t.app, appB, t.app, appB]) answers.push(await list(app, query, cookie));
  return answers;
}

beforeAll(async () => {
  t = await createTestContext();
  // A second app instance on the same database with its own connections: another process in production.
  other = connectDatabase(t.database.url, undefined, { max: 3 });
  const base = { ...t.ctx, db: other.db, pool: other.pool };
  appB = createApp({ ...base, services: createServices(base) });
  await t.ctx.services.sync.applyRoadmap(feed.slice(0, 4), { trigger: 'cli' });
});

afterAll(async () => {
  await other.close();
  await t.close();
});

describe('list totals and pages after writes', () => {
  it('are right immediately after a sync, in both app instances', async () => {
    for (const r of await bothTwice('limit=2')) {
      expect(r.total).toBe(4);
      expect(ids(r)).toEqual(['roadmap-700004', 'roadmap-700003']);
    }
    const newWeek = await bothTwice('limit=2&changeTypes=new_7days');
    expect(newWeek.map((r) => r.total)).toEqual([0, 0, 0, 0]);

    await t.ctx.services.sync.applyRoadmap(feed, { trigger: 'cli' });

    for (const r of await bothTwice('limit=2')) {
      expect(r.total).toBe(5);
      expect(r.totalPages).toBe(3);
      expect(ids(r)).toEqual(['roadmap-700005', 'roadmap-700004']);
    }
    for (const r of await bothTwice('limit=2&changeTypes=new_7days')) {
      expect(r.total).toBe(1);
      expect(ids(r)).toEqual(['roadmap-700005']);
    }
    // A changed item is served in its new version on a page that was cached before.
    await t.ctx.services.sync.applyRoadmap(
      feed.map((r) => (r.itemId === 700004 ? { ...r, title: 'Microsoft Teams: renamed feature' } : r)),
      { trigger: 'cli' },
    );
    for (const r of await bothTwice('limit=2')) expect(r.items[1]!.title).toBe('Microsoft Teams: renamed feature');
  });

  it('are right immediately after a moderation change, in both app instances', async () => {
    const moderator = await signIn(t.app, t.database.db, { roles: [ROLE_NAMES.moderator] });
    const staffCookie = await sessionCookieFor(t.database.db, moderator.user.id);
    for (const r of await bothTwice('limit=2&featured=true')) expect(r.total).toBe(0);
    for (const r of await bothTwice('limit=2', staffCookie)) expect(r.items[0]!.moderatorNotes).toBeNull();

    await moderator.agent
      .put('/api/moderator/roadmap/700002')
      .send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: 'staff only: check with the Teams admins' })
      .expect(200);
    await moderator.agent.put('/api/moderator/roadmap/700005').send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' }).expect(200);
    await moderator.agent.put('/api/moderator/roadmap/700001').send({ isFeatured: true, thirdPartyLinks: [], moderatorNotes: '' }).expect(200);

    for (const r of await bothTwice('limit=2&featured=true')) {
      expect(r.total).toBe(3);
      expect(ids(r)).toEqual(['roadmap-700005', 'roadmap-700002']);
      expect(r.items.every((i) => i.isFeatured)).toBe(true);
    }
    // The same query by the public and by staff: notes and the moderator's address only ever reach staff.
    for (const r of await bothTwice('limit=2&featured=true', staffCookie)) {
      expect(r.items[1]!.moderatorNotes).toBe('staff only: check with the Teams admins');
      expect(r.items[1]!.moderatedBy).toBe(moderator.user.email);
    }
    for (const r of await bothTwice('limit=2&featured=true')) {
      expect(r.items[1]).not.toHaveProperty('moderatorNotes');
      expect(r.items[1]!.moderatedBy).toBe('moderator');
    }

    await moderator.agent.put('/api/moderator/roadmap/700005').send({ isFeatured: false, thirdPartyLinks: [], moderatorNotes: '' }).expect(200);
    for (const r of await bothTwice('limit=2&featured=true')) {
      expect(r.total).toBe(2);
      expect(ids(r)).toEqual(['roadmap-700002', 'roadmap-700001']);
    }
  });

  it('answer a matching If-None-Match with 304 until the data changes', async () => {
    const first = await request(t.app).get('/api/unified/items?limit=2').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The same bytes, so the same validator, from the other instance.
    expect((await request(appB).get('/api/unified/items?limit=2').expect(200)).headers.etag).toBe(etag);
    await request(appB).get('/api/unified/items?limit=2').set('If-None-Match', etag).expect(304);
    await t.ctx.services.sync.applyRoadmap(
      feed.map((r) => (r.itemId === 700005 ? { ...r, title: 'Microsoft Teams: renamed again' } : r)),
      { trigger: 'cli' },
    );
    const after = await request(appB).get('/api/unified/items?limit=2').set('If-None-Match', etag).expect(200);
    expect(after.body.items[0].title).toBe('Microsoft Teams: renamed again');
  });

  it('send the compressed copy of a cached answer with its own validator, as the client accepts it', async () => {
    const url = '/api/unified/items?limit=20';
    const plain = await request(t.app).get(url).set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.text.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      // A browser's header: brotli wins when both are accepted; gzip when brotli is not.
      const accept = encoding === 'br' ? 'gzip, deflate, br, zstd' : 'gzip, deflate';
      const first = await request(t.app).get(url).set('Accept-Encoding', accept).expect(200);
      expect(first.headers['content-encoding']).toBe(encoding);
      expect(first.headers.vary).toMatch(/Accept-Encoding/i);
      expect(first.body).toEqual(plain.body);
      expect(first.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-${encoding}"`);
      // The same copy from the other instance; its validator revalidates to a bodiless 304.
      const other = await request(appB).get(url).set('Accept-Encoding', accept).expect(200);
      expect(other.headers.etag).toBe(first.headers.etag);
      const notModified = await request(appB)
        .get(url)
        .set('Accept-Encoding', accept)
        .set('If-None-Match', first.headers.etag as string)
        .expect(304);
      expect(notModified.headers['content-encoding']).toBeUndefined();
    }
  });

  it("compress a search's answer fast (asked once) and a list's thoroughly (sent again and again)", async () => {
    // The bytes as they leave the server (supertest would decompress them).
    const server = http.createServer(t.app).listen(0);
    const raw = async (path: string, encoding: string) => {
      const res = await rawRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'GET', path, { 'Accept-Encoding': encoding });
      return { encoding: res.headers['content-encoding'], body: res.body };
    };
    const quality = (q: number) => ({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } });
    try {
      for (const [path, br, gzipLevel] of [
        ['/api/unified/items?limit=20&search=microsoft', quality(1), 1],
        ['/api/unified/items?limit=20&sortDirection=asc', quality(4), 6],
        // Punctuation alone searches for nothing: the plain list, asked again like any list.
        ['/api/unified/items?limit=20&search=%22%20-%20%22', quality(4), 6],
      ] as const) {
        const json = (await raw(path, 'identity')).body;
        expect(json.length).toBeGreaterThan(1024);
        const brotli = await raw(path, 'br');
        expect(brotli.encoding).toBe('br');
        expect(brotli.body.equals(zlib.brotliCompressSync(json, br))).toBe(true);
        const gzip = await raw(path, 'gzip');
        expect(gzip.encoding).toBe('gzip');
        expect(gzip.body.equals(zlib.gzipSync(json, { level: gzipLevel }))).toBe(true);
      }
    } finally {
      server.close();
    }
  });

  it('follow the clock for time-relative views without any write', async () => {
    // 700005 was created 2026-02-06T12:05Z: new in the last day until 12:05 today.
    t.clock.set('2026-02-07T12:03:30Z');
    for (const r of await bothTwice('limit=2&changeTypes=new_1_day')) expect(ids(r)).toEqual(['roadmap-700005']);
    t.clock.set('2026-02-07T12:06:00Z');
    for (const r of await bothTwice('limit=2&changeTypes=new_1_day')) {
      expect(r.total).toBe(0);
      expect(r.items).toEqual([]);
    }
    t.clock.set('2026-02-07T12:00:00Z');
  });

  it("keeps one user's since-last-visit answer from another's", async () => {
    const early = await signIn(t.app, t.database.db);
    const late = await signIn(t.app, t.database.db);
    // Previous dashboard visits: before every sync of this file (12:00 at the test clock), and after all of them.
    await t.database.db.insert(dashboardVisits).values([
      { userId: early.user.id, lastSeenAt: d('2026-02-07T11:59:00Z'), previousSeenAt: d('2026-01-15T00:00:00Z') },
      { userId: late.user.id, lastSeenAt: d('2026-02-07T12:01:00Z'), previousSeenAt: d('2026-02-07T12:00:30Z') },
    ]);
    const earlyCookie = await sessionCookieFor(t.database.db, early.user.id);
    const lateCookie = await sessionCookieFor(t.database.db, late.user.id);
    for (const r of await bothTwice('limit=2&sinceLastVisit=true', earlyCookie)) expect(r.total).toBe(5);
    for (const r of await bothTwice('limit=2&sinceLastVisit=true', lateCookie)) {
      expect(r.total).toBe(0);
      expect(r.items).toEqual([]);
    }
    await request(t.app).get('/api/unified/items?sinceLastVisit=true').expect(401);
  });
});
