import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_BROWSER_USER_AGENT } from '../config.js';
import { fixedClock } from '../lib/clock.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT, type ReplayServer } from '../../test/replay-server.js';
import { FeedFormatError, FeedHttpError, FeedTimeoutError, NotConfiguredError } from './errors.js';
import { createGraphMessagesClient } from './graph-messages.js';
import { parseRetryAfter } from './http.js';
import { createRoadmapFeedClient } from './roadmap-feed.js';

let server: ReplayServer;
const clock = fixedClock('2026-01-31T00:40:00Z');
const noWait = { sleep: async () => undefined };
const UA = DEFAULT_BROWSER_USER_AGENT;

beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearFailures();
  server.setRoadmap('A');
  server.setMessages('A');
  server.requests.length = 0;
  server.userAgents.length = 0;
  server.refuseNonBrowsers(false);
});

const roadmap = (retries = 2, timeoutMs = 2000) => createRoadmapFeedClient({ url: server.roadmapUrl, userAgent: UA, timeoutMs, retries, ...noWait });
const graph = (opts: Partial<Parameters<typeof createGraphMessagesClient>[0]> = {}) =>
  createGraphMessagesClient({
    tenantId: TENANT,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorityUrl: server.url,
    apiUrl: server.graphApiUrl,
    clock,
    timeoutMs: 2000,
    retries: 2,
    ...noWait,
    ...opts,
  });

describe('roadmap feed client', () => {
  it('fetches and normalises the whole feed', async () => {
    const records = await roadmap().fetchSnapshot();
    expect(records).toHaveLength(12);
    server.setRoadmap('B');
    expect(await roadmap().fetchSnapshot()).toHaveLength(12);
  });

  it('retries 5xx and 429 (honouring Retry-After) and then succeeds', async () => {
    server.fail({ target: 'roadmap', kind: 'status', status: 503, times: 1 });
    server.fail({ target: 'roadmap', kind: 'status', status: 429, retryAfter: '1', times: 1 });
    const delays: number[] = [];
    const client = createRoadmapFeedClient({ url: server.roadmapUrl, userAgent: UA, timeoutMs: 2000, retries: 3, sleep: async (ms) => void delays.push(ms) });
    expect(await client.fetchSnapshot()).toHaveLength(12);
    expect(server.requests.filter((r) => r === 'GET /roadmap')).toHaveLength(3);
    expect(delays[1]).toBe(1000);
  });

  it('gives up after the retries with a typed error', async () => {
    server.fail({ target: 'roadmap', kind: 'status', status: 500 });
    await expect(roadmap(1).fetchSnapshot()).rejects.toBeInstanceOf(FeedHttpError);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 404', async () => {
    server.fail({ target: 'roadmap', kind: 'status', status: 404 });
    await expect(roadmap(3).fetchSnapshot()).rejects.toMatchObject({ status: 404 });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses malformed JSON, a non-array and an item without id as a whole', async () => {
    server.fail({ target: 'roadmap', kind: 'malformed', times: 1 });
    await expect(roadmap().fetchSnapshot()).rejects.toBeInstanceOf(FeedFormatError);
    server.fail({ target: 'roadmap', kind: 'not-array', times: 1 });
    await expect(roadmap().fetchSnapshot()).rejects.toBeInstanceOf(FeedFormatError);
    server.fail({ target: 'roadmap', kind: 'item-without-id', times: 1 });
    await expect(roadmap().fetchSnapshot()).rejects.toThrow(/id/);
  });

  it('times out a server that hangs', async () => {
    server.fail({ target: 'roadmap', kind: 'hang' });
    await expect(roadmap(0, 300).fetchSnapshot()).rejects.toBeInstanceOf(FeedTimeoutError);
  });

  it('reports an unreachable host as a network error', async () => {
    const client = createRoadmapFeedClient({ url: 'http://127.0.0.1:1/roadmap', userAgent: UA, timeoutMs: 1000, retries: 0 });
    await expect(client.fetchSnapshot()).rejects.toMatchObject({ name: 'FeedNetworkError', transient: true });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('roadmap feed: what the real endpoint does', () => {
  const client = (opts: Partial<Parameters<typeof createRoadmapFeedClient>[0]> = {}) =>
    createRoadmapFeedClient({ url: server.roadmapUrl, rssUrl: server.rssUrl, userAgent: UA, timeoutMs: 2000, retries: 0, ...noWait, ...opts });

  it('sends a browser User-Agent, which an endpoint that refuses other clients accepts', async () => {
    server.refuseNonBrowsers(true);
    // What Node sends by itself is refused, as Microsoft refuses it.
    expect((await fetch(server.roadmapUrl)).status).toBe(403);
    const result = await client().fetch(null);
    expect(result).toMatchObject({ kind: 'snapshot', format: 'json', note: null });
    expect(server.userAgents.at(-1)).toBe(DEFAULT_BROWSER_USER_AGENT);
  });

  it('falls back to the RSS feed when the JSON feed is refused (403), and says why', async () => {
    server.fail({ target: 'roadmap', kind: 'status', status: 403 });
    const result = await client().fetch(null);
    expect(result.kind).toBe('snapshot');
    if (result.kind !== 'snapshot') return;
    expect(result.format).toBe('rss');
    expect(result.note).toMatch(/^The v1 JSON feed was unusable \(.*HTTP 403\); the RSS feed was used\.$/);
    expect(result.records).toHaveLength(12);
    expect(result.validators.url).toBe(server.rssUrl);
  });

  it.each([
    ['an HTML page with status 200', 'html' as const],
    ['truncated JSON', 'truncated' as const],
    ['a wrong shape', 'not-array' as const],
  ])('refuses %s whole and falls back to RSS', async (_name, kind) => {
    server.fail({ target: 'roadmap', kind, times: 1 });
    const result = await client().fetch(null);
    expect(result).toMatchObject({ kind: 'snapshot', format: 'rss' });
  });

  it('fails with both reasons when the RSS feed fails too; without an RSS URL the JSON error stands alone', async () => {
    server.fail({ target: 'roadmap', kind: 'html' });
    server.fail({ target: 'rss', kind: 'truncated' });
    await expect(client().fetch(null)).rejects.toThrow(/^the v1 JSON feed: .*markup instead of JSON.*; the RSS feed: .*not well-formed XML/);
    await expect(client({ rssUrl: null }).fetch(null)).rejects.toThrow(/answered markup instead of JSON \(HTTP 200, text\/html/);
  });

  it('asks conditionally: a 304, or a body equal to the last applied one, is unchanged without parsing', async () => {
    const first = await client().fetch(null);
    if (first.kind !== 'snapshot') throw new Error('expected a snapshot');
    expect(first.validators).toMatchObject({ url: server.roadmapUrl, etag: expect.stringMatching(/^"/), lastModified: expect.any(String) });
    const again = await client().fetch(first.validators);
    expect(again).toMatchObject({ kind: 'unchanged', how: '304', format: 'json' });
    expect(server.requests.at(-1)).toBe('GET /roadmap 304');
    // A server without validators: the body hash decides.
    const noEtag = await client().fetch({ ...first.validators, etag: null, lastModified: null });
    expect(noEtag).toMatchObject({ kind: 'unchanged', how: 'same-body' });
    // Validators of another URL (the last run used RSS) are not sent to this one.
    const other = await client().fetch({ ...first.validators, url: server.rssUrl });
    expect(other.kind).toBe('snapshot');
    server.setRoadmap('B');
    expect((await client().fetch(first.validators)).kind).toBe('snapshot');
  });
});

describe('Graph Message Center client', () => {
  it('gets a client-credentials token, follows @odata.nextLink and concatenates the pages', async () => {
    const messages = await graph().fetchAll();
    expect(messages.map((m) => m.messageId)).toHaveLength(10);
    expect(server.requests).toEqual(['POST /token', 'GET /messages?page=1', 'GET /messages?page=2', 'GET /messages?page=3']);
  });

  it('caches the token until shortly before expiry', async () => {
    const client = graph();
    const before = server.tokensIssued;
    await client.fetchAll();
    await client.fetchAll();
    expect(server.tokensIssued - before).toBe(1);
    clock.advance(3599_000 - 60_000);
    await client.fetchAll();
    expect(server.tokensIssued - before).toBe(2);
  });

  it('without credentials answers NotConfigured and sends nothing', async () => {
    const client = graph({ tenantId: undefined, clientId: undefined, clientSecret: undefined });
    expect(client.configured).toBe(false);
    await expect(client.fetchAll()).rejects.toBeInstanceOf(NotConfiguredError);
    expect(server.requests).toHaveLength(0);
  });

  it('a failing page 2 fails the whole fetch', async () => {
    server.fail({ target: 'messages', page: 2, kind: 'status', status: 500 });
    await expect(graph({ retries: 1 }).fetchAll()).rejects.toBeInstanceOf(FeedHttpError);
  });

  it('retries a transient failure on page 2 and carries on', async () => {
    server.fail({ target: 'messages', page: 2, kind: 'status', status: 502, times: 1 });
    expect(await graph().fetchAll()).toHaveLength(10);
  });

  it('refuses a page without value and a message without id', async () => {
    server.fail({ target: 'messages', page: 2, kind: 'no-value', times: 1 });
    await expect(graph().fetchAll()).rejects.toThrow(/value/);
    server.fail({ target: 'messages', page: 1, kind: 'item-without-id', times: 1 });
    await expect(graph().fetchAll()).rejects.toBeInstanceOf(FeedFormatError);
  });

  it('refuses bad credentials without retrying', async () => {
    await expect(graph({ clientSecret: 'wrong' }).fetchAll()).rejects.toMatchObject({ status: 401 });
  });
});
