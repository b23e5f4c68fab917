import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'drizzle-orm';
import { DEFAULT_BROWSER_USER_AGENT } from '../../src/config.js';
import { createTestDb, type TestDatabase } from '../db.js';
import { startReplayServer, type Failure, type ReplayServer } from '../replay-server.js';
import { startApi, eventually, type ApiProcess } from './api-process.js';
import { adminCookie, roadmapForFaults } from './fault-fixtures.js';

/**
 * A real api process against a roadmap endpoint that behaves like Microsoft's on a bad day: it refuses non-browser
 * clients (403), refuses everyone (RSS fallback), answers empty, half, truncated and HTML feeds, and stalls.
 * Nothing that is refused or held may change a stored item.
 */
const roadmap = roadmapForFaults();
const FEED_TIMEOUT_MS = 1500;
const FEED_RETRIES = 1;
const NON_BROWSER = 'curl/8.5.0';

let database: TestDatabase;
let server: ReplayServer;
let api: ApiProcess;
let cookie: string;

beforeAll(async () => {
  database = await createTestDb();
  server = await startReplayServer({
    roadmaps: { A: roadmap.json },
    ...(roadmap.rss ? { rss: { A: roadmap.rss } } : {}),
    v2Paging: { mode: 'nextLink', pageSize: 500 },
  });
  server.refuseNonBrowsers(true);
  cookie = await adminCookie(database.db);
  api = await startApi({
    DATABASE_URL: database.url,
    ROADMAP_V2_URL: server.v2Url,
    ROADMAP_FEED_URL: server.roadmapUrl,
    ROADMAP_RSS_URL: server.rssUrl,
    FEED_TIMEOUT_MS: String(FEED_TIMEOUT_MS),
    FEED_RETRIES: String(FEED_RETRIES),
  });
});
afterAll(async () => {
  await api?.stop();
  await server?.close();
  await database?.close();
});

const live = async () =>
  (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from items where source = 'roadmap' and not is_removed`)).rows[0]!.n;
const historyRows = async () => (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from item_history`)).rows[0]!.n;
const withInfoLink = async () =>
  (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from items where more_info_link is not null`)).rows[0]!.n;

async function post(path: string) {
  const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { cookie, origin: api.url } });
  return {
    status: res.status,
    body: (await res.json()) as {
      message?: string;
      sync: {
        id: number;
        status: string;
        feedFormat: string | null;
        note: string | null;
        errorMessage: string | null;
        warning: string | null;
        removedItems: number;
        changedItems: number;
        restoredItems: number;
      };
    },
  };
}
const syncRoadmap = () => post('/api/roadmap/sync');
/** `json` breaks both JSON sources of the chain (the v2 API and the v1 feed) the same way; `rss` the RSS feed. */
function failFeeds(json: Failure['kind'] | null, rss: Failure['kind'] | null, extra: Partial<Failure> = {}) {
  server.clearFailures();
  if (json) server.fail({ target: 'v2', kind: json, ...extra });
  if (json) server.fail({ target: 'roadmap', kind: json, ...extra });
  if (rss) server.fail({ target: 'rss', kind: rss, ...extra });
}

describe(`roadmap feed faults against a real api process (${roadmap.label})`, () => {
  it('the endpoint refuses non-browser clients with 403; the api, sending a browser User-Agent, syncs at start', async () => {
    // A non-browser client of our own, told apart from the api's requests (which may come first: the api syncs at once).
    expect((await fetch(server.roadmapUrl, { headers: { 'user-agent': NON_BROWSER } })).status).toBe(403);
    expect((await fetch(server.v2Url, { headers: { 'user-agent': NON_BROWSER } })).status).toBe(403);
    const run = await eventually(
      async () => {
        const { rows } = await database.db.execute<{ status: string; feed_format: string }>(
          sql`select status, feed_format from sync_history where source = 'roadmap' and status <> 'running'`,
        );
        return rows[0];
      },
      60_000,
      'the start-up roadmap sync',
    );
    expect(run).toEqual({ status: 'success', feed_format: 'v2' });
    expect(await live()).toBe(roadmap.items);
    const apis = server.userAgents.filter((ua) => ua !== NON_BROWSER);
    expect(apis.length).toBeGreaterThan(0);
    expect(new Set(apis)).toEqual(new Set([DEFAULT_BROWSER_USER_AGENT]));
  });

  it('asks conditionally: an unchanged feed is a 304 and an unchanged run', async () => {
    // The start-up run's row says 'success' a moment before it lets go of the source's lock (409 until then).
    const { status, body } = await eventually(
      async () => {
        const answer = await syncRoadmap();
        return answer.status === 409 ? undefined : answer;
      },
      10_000,
      'the start-up sync to release the roadmap lock',
    );
    expect(status).toBe(200);
    expect(body.sync).toMatchObject({ status: 'unchanged', note: 'The feed answered 304 Not Modified.' });
    expect(server.requests.at(-1)).toBe('GET /v2 304');
  });

  it('the v2 API gone (404): the v1 JSON feed is read, nothing changes, and the admin is warned once', async () => {
    const before = await historyRows();
    server.clearFailures();
    server.fail({ target: 'v2', kind: 'status', status: 404 });
    const first = await syncRoadmap();
    expect(first.body.sync).toMatchObject({ status: 'success', feedFormat: 'json', changedItems: 0, removedItems: 0 });
    expect(first.body.sync.warning).toMatch(/^The roadmap is now read from the v1 JSON feed: the v2 API stopped working \(.*HTTP 404\)/);
    const second = await syncRoadmap();
    expect(second.body.sync).toMatchObject({ status: 'unchanged', feedFormat: 'json', warning: null });
    expect(await historyRows()).toBe(before);
    server.clearFailures();
    const back = await syncRoadmap();
    expect(back.body.sync).toMatchObject({ feedFormat: 'v2', changedItems: 0, warning: null });
    expect(back.body.sync.note).toMatch(/The v2 API works again \(the previous run read the v1 JSON feed\)\.$/);
  });

  it('falls back to the RSS feed when the JSON feed refuses everyone; nothing changes, no link is blanked', async () => {
    const before = await historyRows();
    failFeeds('status', null, { status: 403 });
    const { status, body } = await syncRoadmap();
    expect(status).toBe(200);
    expect(body.sync).toMatchObject({ status: 'success', feedFormat: 'rss', changedItems: 0, removedItems: 0 });
    expect(body.sync.note).toMatch(/HTTP 403\); the RSS feed was used\.$/);
    expect(await historyRows()).toBe(before);
    expect(await withInfoLink()).toBe(roadmap.withMoreInfo);
  });

  it('holds an empty feed and a half feed (nothing removed); "Apply anyway" and "Discard" decide over HTTP', async () => {
    const before = await historyRows();
    failFeeds('empty', null);
    const empty = await syncRoadmap();
    expect(empty.body.sync).toMatchObject({
      status: 'held',
      note: `The snapshot is empty: applying it would mark all ${roadmap.items.toLocaleString('en-US')} live items removed.`,
    });
    expect((await post(`/api/admin/sync-history/${empty.body.sync.id}/discard`)).status).toBe(200);

    failFeeds('half', null);
    const half = await syncRoadmap();
    expect(half.body.sync.status).toBe('held');
    expect(half.body.sync.note).toMatch(/^The snapshot would remove [\d,]+ of [\d,]+ live items \(50%\), more than SYNC_MAX_REMOVED_PERCENT \(10%\)\.$/);
    expect(await live()).toBe(roadmap.items);
    expect(await historyRows()).toBe(before);

    server.clearFailures();
    const applied = await post(`/api/admin/sync-history/${half.body.sync.id}/apply`);
    expect(applied.status).toBe(200);
    expect(applied.body.sync).toMatchObject({ status: 'success', removedItems: Math.floor(roadmap.items / 2) });
    expect(await live()).toBe(Math.ceil(roadmap.items / 2));
  });

  it('refuses truncated JSON and an HTML page whole; with the RSS feed broken too, nothing changes', async () => {
    const before = { live: await live(), history: await historyRows() };
    for (const [json, rss] of [
      ['truncated', 'status'],
      ['html', 'truncated'],
      ['not-array', 'html'],
    ] as const) {
      failFeeds(json, rss, { status: 404 });
      const { status, body } = await syncRoadmap();
      expect(status).toBe(502);
      expect(body.sync.status).toBe('failed');
      expect(body.sync.errorMessage).toMatch(/^the v2 API: .*; the v1 JSON feed: .*; the RSS feed: /);
    }
    expect({ live: await live(), history: await historyRows() }).toEqual(before);
  });

  it('a truncated JSON feed with a working RSS feed syncs from RSS (here: restoring what "Apply anyway" removed)', async () => {
    failFeeds('truncated', null);
    const { body } = await syncRoadmap();
    expect(body.sync).toMatchObject({ status: 'success', feedFormat: 'rss', restoredItems: Math.floor(roadmap.items / 2) });
    expect(await live()).toBe(roadmap.items);
  });

  it('a stalled feed fails within the bounded timeouts and retries, and the api keeps answering meanwhile', async () => {
    const before = { live: await live(), history: await historyRows() };
    failFeeds('stall', 'stall');
    server.requests.length = 0;
    const started = Date.now();
    const pending = syncRoadmap();
    const list = await fetch(`${api.url}/api/unified/items?limit=5`);
    expect(list.status).toBe(200);
    const { status, body } = await pending;
    const elapsed = Date.now() - started;
    expect(status).toBe(502);
    expect(body.sync.errorMessage).toMatch(
      /did not answer within 1500 ms.*the v1 JSON feed: .*did not answer within 1500 ms.*the RSS feed: .*did not answer within 1500 ms/,
    );
    // (retries + 1) attempts per URL, each cut at FEED_TIMEOUT_MS, plus one backoff of at most 625 ms each.
    expect(server.requests.filter((r) => r === 'GET /v2')).toHaveLength(FEED_RETRIES + 1);
    expect(server.requests.filter((r) => r === 'GET /roadmap')).toHaveLength(FEED_RETRIES + 1);
    expect(server.requests.filter((r) => r === 'GET /rss')).toHaveLength(FEED_RETRIES + 1);
    expect(elapsed).toBeLessThan(3 * ((FEED_RETRIES + 1) * FEED_TIMEOUT_MS + FEED_RETRIES * 625) + 3000);
    expect({ live: await live(), history: await historyRows() }).toEqual(before);
    server.clearFailures();
  });

  it('shuts down on SIGTERM with exit code 0 and no error logged while stopping', async () => {
    const since = Date.now();
    const { code } = await api.stop('SIGTERM');
    expect(code).toBe(0);
    expect(api.errorLogs(since)).toEqual([]);
    expect(api.logsSince(since).map((l) => l.msg)).toContain('stopped');
  });
});
