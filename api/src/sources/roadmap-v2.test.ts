import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_BROWSER_USER_AGENT } from '../config.js';
import { readFixture, startReplayServer, type ReplayServer } from '../../test/replay-server.js';
import { v2ItemsFromRoadmapJson } from '../../test/v2-builder.js';
import { FeedAbortedError, FeedFormatError, FeedHttpError } from './errors.js';
import { parseJsonText, roadmapRecordsFromPayload } from './normalize.js';
import { CombinedFeedError, createRoadmapFeedClient } from './roadmap-feed.js';
import { roadmapRecordsFromV2Items } from './roadmap-v2.js';
import type { RoadmapRecord } from './types.js';

const UA = DEFAULT_BROWSER_USER_AGENT;
const noWait = { sleep: async () => undefined };
const comparable = ({ raw: _raw, lossy: _lossy, ...rest }: RoadmapRecord) => rest;

describe('v2 items → records', () => {
  it.each(['roadmap-a.json', 'roadmap-b.json'])('%s read through v2 gives the records v1 gives (both list spellings)', (file) => {
    const v1 = roadmapRecordsFromPayload(parseJsonText(readFixture(file), file)).map(comparable);
    for (const style of ['strings', 'objects'] as const) {
      const v2 = roadmapRecordsFromV2Items(v2ItemsFromRoadmapJson(readFixture(file), style));
      expect(v2.map(comparable)).toEqual(v1);
      expect(v2.every((r) => r.lossy === undefined)).toBe(true);
    }
  });

  it('"YYYY-MM" dates are stored in the v1 spelling; availabilities fill in missing dates', () => {
    const [a, b] = roadmapRecordsFromV2Items([
      { id: 1, title: 'A', created: '2026-01-01T00:00:00Z', generalAvailabilityDate: '2026-02', previewAvailabilityDate: null, availabilities: [] },
      {
        id: 2,
        title: 'B',
        created: '2026-01-01T00:00:00Z',
        availabilities: [
          { ring: 'General Availability', year: 2026, month: 'September' },
          { ring: 'Preview', year: '2026', month: 7 },
        ],
      },
    ]);
    expect([a?.releaseDate, a?.previewDate]).toEqual(['February CY2026', null]);
    expect([b?.releaseDate, b?.previewDate]).toEqual(['September CY2026', 'July CY2026']);
  });

  it('a key the answer does not carry is marked absent (the sync keeps the stored value); null is a value', () => {
    const [item] = roadmapRecordsFromV2Items([{ id: 7, title: 'T', created: '2026-01-01T00:00:00Z', products: ['Word'], moreInfoUrls: null }]);
    expect(item?.lossy?.absent.sort()).toEqual(['cloudInstances', 'description', 'platforms', 'previewDate', 'releaseDate', 'releasePhase', 'status'].sort());
    expect(item?.moreInfoLink).toBeNull();
    expect(item?.products).toEqual(['Word']);
  });

  it('refuses the whole answer for an item without an id, title or created date, naming it', () => {
    expect(() =>
      roadmapRecordsFromV2Items([
        { id: 1, title: 'ok', created: '2026-01-01T00:00:00Z' },
        { title: 'no id', created: 'x' },
      ]),
    ).toThrow(/roadmap v2 item 1 refused: id/);
    expect(() =>
      roadmapRecordsFromV2Items([{ id: 1, title: 'x', created: '2026-01-01T00:00:00Z', availabilities: [{ ring: 'GA', year: 2026, month: 'Smarch' }] }]),
    ).toThrow(FeedFormatError);
  });
});

describe('the roadmap chain: v2, v1 JSON, RSS', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.clearFailures();
    server.setRoadmap('A');
    server.setV2Paging({ mode: 'nextLink', pageSize: 5 });
    server.setV2Transform(null);
    server.requests.length = 0;
  });
  const client = (over: Partial<Parameters<typeof createRoadmapFeedClient>[0]> = {}) =>
    createRoadmapFeedClient({
      v2Url: server.v2Url,
      url: server.roadmapUrl,
      rssUrl: server.rssUrl,
      userAgent: UA,
      timeoutMs: 2000,
      retries: 1,
      ...noWait,
      ...over,
    });
  const v1Records = () => roadmapRecordsFromPayload(parseJsonText(readFixture('roadmap-a.json'), 'A')).map(comparable);

  it('follows @odata.nextLink through every page', async () => {
    const answer = await client().fetch(null);
    expect(answer).toMatchObject({ kind: 'snapshot', format: 'v2', preferred: 'v2', skipped: [], note: null });
    if (answer.kind !== 'snapshot') throw new Error('snapshot expected');
    expect(answer.records.map(comparable)).toEqual(v1Records());
    expect(server.requests).toEqual(['GET /v2', 'GET /v2?skip=5', 'GET /v2?skip=10']);
  });

  it('never stops at a default page size: with only @odata.count, it pages with $skip', async () => {
    server.setV2Paging({ mode: 'count', pageSize: 4 });
    const answer = await client().fetch(null);
    if (answer.kind !== 'snapshot') throw new Error('snapshot expected');
    expect(answer.records).toHaveLength(12);
    expect(server.requests).toEqual(['GET /v2', 'GET /v2?skip=4', 'GET /v2?skip=8']);
  });

  it('a server that refuses $count is asked once more without it (one page: all it has)', async () => {
    server.setV2Paging({ mode: 'single', refuseCount: true });
    const answer = await client().fetch(null);
    expect(answer).toMatchObject({ kind: 'snapshot', format: 'v2' });
    expect(server.requests).toEqual(['GET /v2 400', 'GET /v2']);
  });

  it('conditional: the next fetch with the validators is a 304, or the same bytes', async () => {
    const first = await client().fetch(null);
    server.requests.length = 0;
    const again = await client().fetch(first.validators);
    expect(again).toMatchObject({ kind: 'unchanged', format: 'v2', how: '304' });
    expect(server.requests).toEqual(['GET /v2 304']);
    const sameBytes = await client().fetch({ ...first.validators, etag: null, lastModified: null });
    expect(sameBytes).toMatchObject({ kind: 'unchanged', how: 'same-body' });
  });

  it.each([404, 410, 403])('v2 answering %i hands over to the v1 JSON feed, saying why', async (status) => {
    server.fail({ target: 'v2', kind: 'status', status });
    const answer = await client().fetch(null);
    expect(answer).toMatchObject({
      kind: 'snapshot',
      format: 'json',
      preferred: 'v2',
      skipped: [{ format: 'v2', reason: expect.stringContaining(`HTTP ${status}`) }],
    });
    expect(answer.note).toBe(`The v2 API was unusable (${server.v2Url} answered HTTP ${status}); the v1 JSON feed was used.`);
  });

  it.each(['malformed', 'html', 'truncated', 'not-array'] as const)('a %s v2 answer hands over too', async (kind) => {
    server.fail({ target: 'v2', kind });
    expect(await client().fetch(null)).toMatchObject({ kind: 'snapshot', format: 'json' });
  });

  it('a v2 item the schema refuses hands over (the whole answer is refused, never half of it)', async () => {
    server.setV2Transform((items) => items.map((item, i) => (i === 3 ? { ...item, id: 'not a number' } : item)));
    const answer = await client().fetch(null);
    expect(answer).toMatchObject({ format: 'json', skipped: [{ format: 'v2', reason: expect.stringMatching(/^roadmap v2 item 3 refused: id/) }] });
  });

  it('v2 and v1 both missing: the RSS feed is read', async () => {
    server.fail({ target: 'v2', kind: 'status', status: 404 });
    server.fail({ target: 'roadmap', kind: 'status', status: 404 });
    const answer = await client().fetch(null);
    expect(answer).toMatchObject({ kind: 'snapshot', format: 'rss', skipped: [{ format: 'v2' }, { format: 'json' }] });
    expect(answer.note).toMatch(/^The v2 API was unusable \(.*HTTP 404\); The v1 JSON feed was unusable \(.*HTTP 404\); the RSS feed was used\.$/);
  });

  it('every source failing is one error naming each', async () => {
    server.fail({ target: 'v2', kind: 'status', status: 404 });
    server.fail({ target: 'roadmap', kind: 'status', status: 403 });
    server.fail({ target: 'rss', kind: 'html' });
    const err = await client()
      .fetch(null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CombinedFeedError);
    expect((err as Error).message).toMatch(/^the v2 API: .*HTTP 404; the v1 JSON feed: .*HTTP 403; the RSS feed: /);
    expect((err as CombinedFeedError).transient).toBe(false);
  });

  it('without v2 configured the chain starts at v1; with one source left its own error is thrown', async () => {
    server.fail({ target: 'roadmap', kind: 'status', status: 404 });
    const err = await client({ v2Url: null, rssUrl: null })
      .fetch(null)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FeedHttpError);
    expect(client({ v2Url: null }).chain.map((c) => c.format)).toEqual(['json', 'rss']);
  });

  it('a stop (shutdown) ends the chain at once', async () => {
    server.fail({ target: 'v2', kind: 'hang' });
    const stop = new AbortController();
    const pending = client({ timeoutMs: 30_000 }).fetch(null, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('shutting down')), 100);
    await expect(pending).rejects.toBeInstanceOf(FeedAbortedError);
    expect(server.requests.filter((r) => r.startsWith('GET /roadmap'))).toEqual([]);
  });

  it('counts schema drift: keys v2 items carry that we do not read, and expected keys they lack', async () => {
    server.setV2Transform((items) => items.map(({ moreInfoUrls: _gone, ...item }) => ({ ...item, aiSummary: 'new', '@odata.etag': 'W/"1"' })));
    const answer = await client().fetch(null);
    if (answer.kind !== 'snapshot') throw new Error('snapshot expected');
    expect(answer.drift).toEqual({ unexpected: [{ field: 'aiSummary', items: 12 }], missing: [{ field: 'moreInfoUrls', items: 12 }] });
    expect(answer.records.every((r) => r.lossy?.absent.includes('moreInfoLink'))).toBe(true);
  });
});
