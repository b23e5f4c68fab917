import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real HTTP server that replays recorded feeds, so the production clients (fetch, retries, zod validation,
 * paging) run unmodified in tests:
 *   GET  /roadmap                                   the current roadmap snapshot, byte for byte as recorded
 *   POST /{tenant}/oauth2/v2.0/token                client-credentials token (checks the form)
 *   GET  /v1.0/admin/serviceAnnouncement/messages   the current Message Center snapshot in pages with @odata.nextLink
 * Failures are scripted with fail(): a status (500, 429 + Retry-After), malformed JSON, a page without `value`,
 * a hang, each on a path and optionally only on a given page, a number of times.
 */

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const TENANT = 'contoso-tenant';
export const CLIENT_ID = 'replay-client';
export const CLIENT_SECRET = 'replay-secret';

export type Target = 'roadmap' | 'token' | 'messages';
export interface Failure {
  target: Target;
  kind: 'status' | 'malformed' | 'hang' | 'no-value' | 'not-array' | 'item-without-id';
  status?: number;
  retryAfter?: string;
  /** Messages only: 1-based page; omit for every page. */
  page?: number;
  /** How many requests fail; omit for all. */
  times?: number;
}

export interface ReplayServer {
  url: string;
  graphApiUrl: string;
  roadmapUrl: string;
  /** Roadmap snapshots by name: raw text served as is. */
  setRoadmap(name: string): void;
  setMessages(name: string): void;
  addRoadmap(name: string, text: string): void;
  addMessages(name: string, messages: unknown[]): void;
  fail(failure: Failure): void;
  clearFailures(): void;
  /** Requests seen, e.g. ['GET /roadmap', 'POST /token', 'GET /messages?page=2']. */
  requests: string[];
  tokensIssued: number;
  close(): Promise<void>;
}

export const readFixture = (name: string) => fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8');

export async function startReplayServer(options: {
  roadmaps?: Record<string, string>;
  messages?: Record<string, unknown[]>;
  pageSize?: number;
} = {}): Promise<ReplayServer> {
  const roadmaps = new Map(Object.entries(options.roadmaps ?? { A: readFixture('roadmap-a.json'), B: readFixture('roadmap-b.json') }));
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
  let roadmapName = [...roadmaps.keys()][0];
  let messagesName = [...messageSets.keys()][0];
  let failures: (Failure & { used: number })[] = [];
  const sockets = new Set<Socket>();
  const tokenText = readFixture('graph-token.json');
  const token = (JSON.parse(tokenText) as { access_token: string }).access_token;

  const state = { requests: [] as string[], tokensIssued: 0 };
  let base = '';

  function failureFor(target: Target, page?: number) {
    const f = failures.find((x) => x.target === target && (x.page === undefined || x.page === page) && (x.times === undefined || x.used < x.times));
    if (f) f.used++;
    return f;
  }

  function applyFailure(f: Failure, res: http.ServerResponse): boolean {
    if (f.kind === 'hang') return true; // never answer; the client's timeout must fire
    if (f.kind === 'status') {
      res.writeHead(f.status ?? 500, { 'content-type': 'application/json', ...(f.retryAfter ? { 'retry-after': f.retryAfter } : {}) });
      res.end(JSON.stringify({ error: { code: 'ServiceUnavailable', message: 'replayed failure' } }));
      return true;
    }
    const bodies: Record<string, string> = {
      malformed: '[{"id": 1, "title": "truncated',
      'no-value': JSON.stringify({ '@odata.context': 'x', items: [] }),
      'not-array': JSON.stringify({ message: 'not what you expected' }),
      'item-without-id': JSON.stringify([{ title: 'no id', created: '2026-01-01T00:00:00' }]),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(f.target === 'messages' && f.kind === 'item-without-id' ? JSON.stringify({ value: [{ title: 'no id' }] }) : bodies[f.kind]);
    return true;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'GET' && url.pathname === '/roadmap') {
        state.requests.push('GET /roadmap');
        const f = failureFor('roadmap');
        if (f && applyFailure(f, res)) return;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        return res.end(roadmaps.get(roadmapName));
      }
      if (req.method === 'POST' && url.pathname === `/${TENANT}/oauth2/v2.0/token`) {
        state.requests.push('POST /token');
        const f = failureFor('token');
        if (f && applyFailure(f, res)) return;
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
      if (req.method === 'GET' && url.pathname === '/v1.0/admin/serviceAnnouncement/messages') {
        const page = Number(url.searchParams.get('$skiptoken') ?? '1');
        state.requests.push(`GET /messages?page=${page}`);
        if (req.headers.authorization !== `Bearer ${token}`) {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { code: 'InvalidAuthenticationToken' } }));
        }
        const f = failureFor('messages', page);
        if (f && applyFailure(f, res)) return;
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
    setRoadmap: (name) => {
      if (!roadmaps.has(name)) throw new Error(`no roadmap snapshot ${name}`);
      roadmapName = name;
    },
    setMessages: (name) => {
      if (!messageSets.has(name)) throw new Error(`no messages snapshot ${name}`);
      messagesName = name;
    },
    addRoadmap: (name, text) => void roadmaps.set(name, text),
    addMessages: (name, list) => void messageSets.set(name, list),
    fail: (f) => void failures.push({ ...f, used: 0 }),
    clearFailures: () => void (failures = []),
    get requests() {
      return state.requests;
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
