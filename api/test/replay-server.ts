import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerFeedFailure, type Failure, type Target } from './replay-failures.js';
import { rssFromRoadmapJson } from './rss-builder.js';
import { v2ItemsFromRoadmapJson } from './v2-builder.js';

export type { Failure, Target };

/**
 * A real HTTP server that replays recorded feeds, so the production clients (fetch, retries, zod validation,
 * paging) run unmodified in tests:
 *   GET  /roadmap                                   the current roadmap snapshot, byte for byte as recorded
 *   GET  /rss                                       the same moment as the RSS feed (built from it, or recorded)
 *   GET  /v2                                        the same moment as the v2 API (OData: $count, $skip, $top, $orderby),
 *                                                   in pages with @odata.nextLink, or counted pages the client must
 *                                                   $skip through, or one page (setV2Paging)
 *   POST /{tenant}/oauth2/v2.0/token                client-credentials token (checks the form)
 *   GET  /v1.0/admin/serviceAnnouncement/messages   the current Message Center snapshot in pages with @odata.nextLink
 *   GET  …/messages/{id}/attachments[/{aid}/content]  a post's attachment list and files (setAttachments)
 *   GET  /v1.0/admin/serviceAnnouncement/issues      the tenant's Service Health issues (setHealthIssues; none by default)
 *   GET  /v1.0/admin/serviceAnnouncement/healthOverviews  no services (an empty list)
 * Roadmap and RSS answers carry an ETag and Last-Modified and answer 304 to a matching conditional request, as a CDN
 * does. Like Microsoft's endpoint, it can refuse clients without a browser User-Agent (403). Failures are scripted
 * with fail() (replay-failures.ts).
 */

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const TENANT = 'contoso-tenant';
export const CLIENT_ID = 'replay-client';
export const CLIENT_SECRET = 'replay-secret';

export interface ReplayServer {
  url: string;
  graphApiUrl: string;
  roadmapUrl: string;
  rssUrl: string;
  v2Url: string;
  /** How /v2 pages: 'nextLink' (the default), 'count' (only @odata.count: the client must $skip), 'single'. */
  setV2Paging(paging: V2Paging): void;
  /** The attachments Graph lists for each post (MC910003 has one by default); `content` is the file. */
  setAttachments(byMessage: Record<string, ReplayAttachment[]>): void;
  /** The Service Health issues Graph lists (raw serviceHealthIssue objects). */
  setHealthIssues(list: unknown[]): void;
  /** Rewrites the v2 items before they are served (schema drift, a missing key); null restores the plain twin. */
  setV2Transform(transform: ((items: Record<string, unknown>[]) => Record<string, unknown>[]) | null): void;
  /** Roadmap snapshots by name: raw text served as is (the RSS twin is built from it unless one was added). */
  setRoadmap(name: string): void;
  setMessages(name: string): void;
  addRoadmap(name: string, text: string, rss?: string): void;
  addMessages(name: string, messages: unknown[]): void;
  /** Answer 403 (an HTML page) to roadmap and RSS requests whose User-Agent is not a browser's, like Microsoft's. */
  refuseNonBrowsers(on: boolean): void;
  fail(failure: Failure): void;
  clearFailures(): void;
  /** Requests seen, e.g. ['GET /roadmap', 'GET /roadmap 304', 'POST /token', 'GET /messages?page=2']. */
  requests: string[];
  /** User-Agent of each roadmap/RSS request, in order. */
  userAgents: string[];
  tokensIssued: number;
  close(): Promise<void>;
}

export interface ReplayAttachment {
  id: string;
  name: string;
  contentType: string;
  content: string | Buffer;
  lastModifiedDateTime?: string;
}

export const DEFAULT_ATTACHMENTS: Record<string, ReplayAttachment[]> = {
  MC910003: [
    {
      id: 'AAMkAGI2TG93AAA=',
      name: 'Retention labels — guide.pdf',
      contentType: 'application/pdf',
      content: '%PDF-1.4\n% replayed retention labels guide\n',
      lastModifiedDateTime: '2026-06-01T12:00:00Z',
    },
  ],
};

export interface V2Paging {
  mode: 'nextLink' | 'count' | 'single';
  pageSize?: number;
  /** Lists as `{ tagName }` objects and availability months as names (the other spellings the client reads). */
  style?: 'strings' | 'objects';
  /** Answer 400 to `$count` (a server without that option). */
  refuseCount?: boolean;
}

export const readFixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8');

/** Browsers all send "Mozilla/5.0 (…)"; Node's fetch sends "node", curl "curl/…". */
export const looksLikeBrowser = (ua: string | undefined) => /^Mozilla\/5\.0 \(/.test(ua ?? '');

const etagOf = (text: string) => `"${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;

export async function startReplayServer(
  options: {
    roadmaps?: Record<string, string>;
    rss?: Record<string, string>;
    messages?: Record<string, unknown[]>;
    pageSize?: number;
    v2Paging?: V2Paging;
  } = {},
): Promise<ReplayServer> {
  const roadmaps = new Map(Object.entries(options.roadmaps ?? { A: readFixture('roadmap-a.json'), B: readFixture('roadmap-b.json') }));
  const rssTexts = new Map(Object.entries(options.rss ?? {}));
  const messageSets = new Map(
    Object.entries(
      options.messages ?? {
        A: JSON.parse(readFixture('messages-a.json')),
        B: JSON.parse(readFixture('messages-b.json')),
        C: JSON.parse(readFixture('messages-c.json')),
      },
    ),
  );
  const pageSize = options.pageSize ?? 4;
  let roadmapName = [...roadmaps.keys()][0]!;
  let messagesName = [...messageSets.keys()][0]!;
  let failures: (Failure & { used: number })[] = [];
  let browsersOnly = false;
  let v2Paging: V2Paging = options.v2Paging ?? { mode: 'nextLink', pageSize: 5 };
  let v2Transform: ((items: Record<string, unknown>[]) => Record<string, unknown>[]) | null = null;
  let attachments: Record<string, ReplayAttachment[]> = DEFAULT_ATTACHMENTS;
  let healthIssues: unknown[] = [];
  /** When each served body was first served: its Last-Modified. */
  const firstServed = new Map<string, string>();
  const sockets = new Set<Socket>();
  const tokenText = readFixture('graph-token.json');
  const token = (JSON.parse(tokenText) as { access_token: string }).access_token;

  const state = { requests: [] as string[], userAgents: [] as string[], tokensIssued: 0 };
  let base = '';

  function failureFor(target: Target, page?: number) {
    const f = failures.find((x) => x.target === target && (x.page === undefined || x.page === page) && (x.times === undefined || x.used < x.times));
    if (f) f.used++;
    return f;
  }

  function answerStatus(f: Failure, res: http.ServerResponse) {
    res.writeHead(f.status ?? 500, { 'content-type': 'application/json', ...(f.retryAfter ? { 'retry-after': f.retryAfter } : {}) });
    res.end(JSON.stringify({ error: { code: 'ServiceUnavailable', message: 'replayed failure' } }));
  }

  /** The JSON-API failures the Graph and token endpoints (and the roadmap) share. */
  function answerJsonFailure(f: Failure, res: http.ServerResponse): boolean {
    if (f.kind === 'hang') return true;
    if (f.kind === 'status') return (answerStatus(f, res), true);
    const bodies: Record<string, string> = {
      malformed: '[{"id": 1, "title": "truncated',
      'no-value': JSON.stringify({ '@odata.context': 'x', items: [] }),
      'not-array': JSON.stringify({ message: 'not what you expected' }),
      'item-without-id': JSON.stringify([{ title: 'no id', created: '2026-01-01T00:00:00' }]),
    };
    if (!(f.kind in bodies)) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(f.target === 'messages' && f.kind === 'item-without-id' ? JSON.stringify({ value: [{ title: 'no id' }] }) : bodies[f.kind]);
    return true;
  }

  function serveFeed(req: http.IncomingMessage, res: http.ServerResponse, target: 'roadmap' | 'rss') {
    const ua = req.headers['user-agent'] ?? '';
    state.userAgents.push(ua);
    if (browsersOnly && !looksLikeBrowser(ua)) {
      state.requests.push(`GET /${target} 403`);
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body><h1>403 Forbidden</h1></body></html>');
      return;
    }
    const json = roadmaps.get(roadmapName)!;
    const body = target === 'roadmap' ? json : (rssTexts.get(roadmapName) ?? rssFromRoadmapJson(json));
    const f = failureFor(target);
    if (f) {
      state.requests.push(`GET /${target}`);
      if (f.kind === 'status') return answerStatus(f, res);
      if (answerFeedFailure(f, res, body, target === 'rss') || answerJsonFailure(f, res)) return;
    }
    const etag = etagOf(body);
    if (!firstServed.has(etag)) firstServed.set(etag, new Date().toUTCString());
    const lastModified = firstServed.get(etag)!;
    if (req.headers['if-none-match'] === etag) {
      state.requests.push(`GET /${target} 304`);
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    state.requests.push(`GET /${target}`);
    const type = target === 'roadmap' ? 'application/json; charset=utf-8' : 'application/rss+xml; charset=utf-8';
    res.writeHead(200, { 'content-type': type, etag, 'last-modified': lastModified });
    res.end(body);
  }

  /** The v2 API: the current snapshot as v2 items, paged the way setV2Paging says; failures as for the roadmap. */
  function serveV2(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const ua = req.headers['user-agent'] ?? '';
    state.userAgents.push(ua);
    const skip = Number(url.searchParams.get('$skip') ?? '0');
    const label = `GET /v2${skip ? `?skip=${skip}` : ''}`;
    if (browsersOnly && !looksLikeBrowser(ua)) {
      state.requests.push(`${label} 403`);
      res.writeHead(403, { 'content-type': 'text/html' }).end('<html><body><h1>403 Forbidden</h1></body></html>');
      return;
    }
    if (v2Paging.refuseCount && url.searchParams.has('$count')) {
      state.requests.push(`${label} 400`);
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'BadRequest', message: 'Query option $count is not allowed' } }));
      return;
    }
    const json = roadmaps.get(roadmapName)!;
    let all = v2ItemsFromRoadmapJson(json, v2Paging.style);
    if (v2Transform) all = v2Transform(all);
    const whole = JSON.stringify({ value: all });
    const f = failureFor('v2');
    if (f) {
      state.requests.push(label);
      if (f.kind === 'status') return answerStatus(f, res);
      if (f.kind === 'empty' || f.kind === 'half') {
        const kept = f.kind === 'empty' ? [] : all.slice(0, Math.ceil(all.length / 2));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ '@odata.context': `${base}/v2/$metadata#m365`, value: kept }));
        return;
      }
      if (answerFeedFailure(f, res, whole, false) || answerJsonFailure(f, res)) return;
    }
    if (url.searchParams.get('$orderby') === 'id') all = [...all].sort((a, b) => Number(a.id) - Number(b.id));
    const size = v2Paging.mode === 'single' ? all.length : Number(url.searchParams.get('$top')) || (v2Paging.pageSize ?? 5);
    const more = skip + size < all.length;
    const next = new URL(url.toString());
    next.searchParams.set('$skip', String(skip + size));
    const body = JSON.stringify({
      '@odata.context': `${base}/v2/$metadata#m365`,
      ...(url.searchParams.get('$count') === 'true' ? { '@odata.count': all.length } : {}),
      value: all.slice(skip, skip + size),
      ...(more && v2Paging.mode === 'nextLink' ? { '@odata.nextLink': next.toString() } : {}),
    });
    const etag = etagOf(body);
    if (!firstServed.has(etag)) firstServed.set(etag, new Date().toUTCString());
    const lastModified = firstServed.get(etag)!;
    if (req.headers['if-none-match'] === etag) {
      state.requests.push(`${label} 304`);
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    state.requests.push(label);
    res.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal', etag, 'last-modified': lastModified });
    res.end(body);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'GET' && url.pathname === '/v2') return serveV2(req, res, url);
      if (req.method === 'GET' && (url.pathname === '/roadmap' || url.pathname === '/rss'))
        return serveFeed(req, res, url.pathname === '/roadmap' ? 'roadmap' : 'rss');
      if (req.method === 'POST' && url.pathname === `/${TENANT}/oauth2/v2.0/token`) {
        state.requests.push('POST /token');
        const f = failureFor('token');
        if (f && answerJsonFailure(f, res)) return;
        const form = new URLSearchParams(body);
        const ok =
          form.get('grant_type') === 'client_credentials' &&
          form.get('client_id') === CLIENT_ID &&
          form.get('client_secret') === CLIENT_SECRET &&
          form.get('scope') === `${base}/.default`;
        if (!ok) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: 'invalid_client' }));
        }
        state.tokensIssued++;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(tokenText);
      }
      const attachment = /^\/v1\.0\/admin\/serviceAnnouncement\/messages\/([^/]+)\/attachments(?:\/([^/]+)\/content)?$/.exec(url.pathname);
      if (req.method === 'GET' && attachment) {
        const [, messageId, attachmentId] = attachment.map((p) => (p ? decodeURIComponent(p) : p));
        state.requests.push(attachmentId ? `GET /attachments/${attachmentId}/content` : `GET /messages/${messageId}/attachments`);
        if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
        const f = failureFor('attachments');
        if (f && answerJsonFailure(f, res)) return;
        const list = attachments[messageId ?? ''] ?? [];
        if (!attachmentId) {
          const value = list.map(({ content, ...meta }) => ({ ...meta, size: Buffer.byteLength(content) }));
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value }));
        }
        const file = list.find((a) => a.id === attachmentId);
        if (!file) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        const body = Buffer.from(file.content);
        return void res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(body.length) }).end(body);
      }
      // Service Health of the tenant: the issues set with setHealthIssues (none unless set), no service overviews.
      if (
        req.method === 'GET' &&
        (url.pathname === '/v1.0/admin/serviceAnnouncement/issues' || url.pathname === '/v1.0/admin/serviceAnnouncement/healthOverviews')
      ) {
        const issues = url.pathname.endsWith('/issues');
        state.requests.push(issues ? 'GET /issues' : 'GET /healthOverviews');
        if (req.headers.authorization !== `Bearer ${token}`) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { code: 'InvalidAuthenticationToken' } }));
        }
        res.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal' });
        return res.end(JSON.stringify({ value: issues ? healthIssues : [] }));
      }
      if (req.method === 'GET' && url.pathname === '/v1.0/admin/serviceAnnouncement/messages') {
        const page = Number(url.searchParams.get('$skiptoken') ?? '1');
        state.requests.push(`GET /messages?page=${page}`);
        if (req.headers.authorization !== `Bearer ${token}`) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { code: 'InvalidAuthenticationToken' } }));
        }
        const f = failureFor('messages', page);
        if (f && answerJsonFailure(f, res)) return;
        const all = messageSets.get(messagesName) ?? [];
        const slice = all.slice((page - 1) * pageSize, page * pageSize);
        const more = page * pageSize < all.length;
        res.writeHead(200, { 'content-type': 'application/json; odata.metadata=minimal' });
        return res.end(
          JSON.stringify({
            '@odata.context': `${base}/v1.0/$metadata#admin/serviceAnnouncement/messages`,
            value: slice,
            ...(more ? { '@odata.nextLink': `${base}/v1.0/admin/serviceAnnouncement/messages?$skiptoken=${page + 1}` } : {}),
          }),
        );
      }
      res.writeHead(404).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    graphApiUrl: base,
    roadmapUrl: `${base}/roadmap`,
    rssUrl: `${base}/rss`,
    v2Url: `${base}/v2`,
    setV2Paging: (paging) => void (v2Paging = paging),
    setV2Transform: (transform) => void (v2Transform = transform),
    setAttachments: (byMessage) => void (attachments = byMessage),
    setHealthIssues: (list) => void (healthIssues = list),
    setRoadmap: (name) => {
      if (!roadmaps.has(name)) throw new Error(`no roadmap snapshot ${name}`);
      roadmapName = name;
    },
    setMessages: (name) => {
      if (!messageSets.has(name)) throw new Error(`no messages snapshot ${name}`);
      messagesName = name;
    },
    addRoadmap: (name, text, rss) => {
      roadmaps.set(name, text);
      if (rss) rssTexts.set(name, rss);
    },
    addMessages: (name, list) => void messageSets.set(name, list),
    refuseNonBrowsers: (on) => void (browsersOnly = on),
    fail: (f) => void failures.push({ ...f, used: 0 }),
    clearFailures: () => void (failures = []),
    get requests() {
      return state.requests;
    },
    get userAgents() {
      return state.userAgents;
    },
    get tokensIssued() {
      return state.tokensIssued;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
