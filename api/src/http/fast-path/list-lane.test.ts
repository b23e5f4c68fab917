import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Express } from 'express';
import http from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { ROLE_NAMES } from '@radar/contracts';
import { createApp } from '../../app.js';
import { connectDatabase } from '../../db/client.js';
import { createServices } from '../../services.js';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createUser, insertMessage, insertRoadmapItem, sessionCookieFor } from '../../../test/factories.js';
import { captureLog } from '../../../test/log-capture.js';
import { rawRequest, type RawResponse } from '../../../test/raw-http.js';

/**
 * The list's fast lane (list-lane.ts) answers anonymous list requests in front of Express. Each request here goes
 * to two servers on the same context and cache — one with the lane, one without — and the answers must be the same
 * in status, headers, body bytes and access line; the lane's server must also say which requests it handed to Express,
 * so a lane that silently passed everything on would fail.
 */

interface Served {
  url: string;
  close(): Promise<void>;
}

let t: TestContext;
let withLane: Served;
let without: Served;
let stopping = false;
const passedOn: string[] = [];
const accessLines: { lane: Record<string, unknown>[]; express: Record<string, unknown>[] } = { lane: [], express: [] };
let staffCookie: string;

function capture(into: Record<string, unknown>[]) {
  return captureLog('info', into).log;
}

async function serve(app: Express): Promise<Served> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The response with what differs by nature between two answers taken out: the date, and a generated request id. */
function comparable(raw: RawResponse, givenRequestId: boolean) {
  const { date: _date, ...headers } = raw.headers;
  if (!givenRequestId) {
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    delete headers['x-request-id'];
  }
  return { status: raw.status, headers, body: raw.body.toString('base64') };
}

const accessLinesOf = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'request completed' || l.msg === 'request aborted');

const accessLine = (lines: Record<string, unknown>[]) => {
  const line = accessLinesOf(lines).at(-1);
  if (!line) return undefined;
  const { time: _t, pid: _p, hostname: _h, responseTime, req, ...rest } = line as Record<string, unknown> & { req: Record<string, unknown> };
  expect(typeof responseTime).toBe('number');
  const { id: _id, ...request } = req;
  return { ...rest, req: request };
};

/**
 * Sends the request both ways; returns the lane server's answer after checking the two are the same. Express answers
 * first and the two apps share one answer cache, so the lane serves what the route made (the lane's own answers are
 * compared with the route's below, each made by its own server).
 */
async function both(method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const logged = { lane: accessLinesOf(accessLines.lane).length, express: accessLinesOf(accessLines.express).length };
  const plain = await rawRequest(without.url, method, path, headers);
  const lane = await rawRequest(withLane.url, method, path, headers);
  const given = 'X-Request-Id' in headers && /^[\w.:-]{1,128}$/.test(headers['X-Request-Id']!);
  expect(comparable(lane, given)).toEqual(comparable(plain, given));
  // The access line is written when the answer ends; the client can see the end first (under load, the next
  // request's end too): wait, a bounded number of turns, until each server has written its line for this request.
  const waiting = () => accessLinesOf(accessLines.lane).length === logged.lane || accessLinesOf(accessLines.express).length === logged.express;
  for (let turns = 0; turns < 10_000 && waiting(); turns++) await new Promise((r) => setImmediate(r));
  expect(accessLine(accessLines.lane)).toEqual(accessLine(accessLines.express));
  return lane;
}

beforeAll(async () => {
  t = await createTestContext();
  for (let i = 0; i < 12; i++) {
    await insertRoadmapItem(t.database.db, {
      title: `Microsoft Teams: meeting feature ${i}`,
      description: `<p>${'Meeting recap and notes for everyone. '.repeat(20)}</p>`,
    });
  }
  for (let i = 0; i < 4; i++) await insertMessage(t.database.db, { title: `Teams meeting change ${i}` });
  const moderator = await createUser(t.database.db, { email: 'mod@example.com', roles: [ROLE_NAMES.moderator] });
  staffCookie = await sessionCookieFor(t.database.db, moderator.id);
  // Two apps on one context (one answer cache), each with its own access log.
  const laneApp = createApp(
    { ...t.ctx, log: capture(accessLines.lane) },
    { isStopping: () => stopping, onListLaneFallback: (req) => passedOn.push(`${req.method} ${req.url}`) },
  );
  const plainApp = createApp({ ...t.ctx, log: capture(accessLines.express) }, { isStopping: () => stopping, listLane: false });
  withLane = await serve(laneApp);
  without = await serve(plainApp);
});

afterAll(async () => {
  await withLane?.close();
  await without?.close();
  await t?.close();
});

describe('the item list fast lane answers exactly as the Express route does', () => {
  const answered = [
    '/api/unified/items',
    '/api/unified/items?page=2&limit=5',
    '/api/unified/items?search=teams%20meeting',
    '/api/unified/items?sources=messages&sortField=modifiedDate&sortDirection=asc',
    '/api/unified/items?limit=1',
    '/api/unified/items?timeline=7days&limit=3&page=1',
    '/api/unified/items?page=99',
  ];
  const encodings = [undefined, 'gzip', 'br, gzip', 'gzip, deflate, br, zstd', 'br;q=0, gzip', 'identity', '*', 'gzip;q=0, br;q=0'];

  it('GET and HEAD for lists, pages, searches and filters, with every Accept-Encoding a client sends', async () => {
    passedOn.length = 0;
    for (const path of answered) {
      for (const encoding of encodings) {
        const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
        const get = await both('GET', path, headers);
        expect(get.status).toBe(200);
        const head = await both('HEAD', path, headers);
        expect(head.body.length).toBe(0);
        expect(head.headers['content-length']).toBe(get.headers['content-length']);
      }
    }
    const large = await both('GET', '/api/unified/items', { 'Accept-Encoding': 'br, gzip' });
    expect(large.headers['content-encoding']).toBe('br');
    const small = await both('GET', '/api/unified/items?limit=1&search=nothing-matches-this', { 'Accept-Encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(passedOn).toEqual([]);
  });

  it('makes an answer itself, the same bytes and headers as the route makes it, reading the data version once', async () => {
    // A server of its own (its own answer cache) without the lane, so both answers are made, not one of them served.
    const ownBase = { ...t.ctx, log: capture([]) };
    const plainOwn = await serve(createApp({ ...ownBase, services: createServices(ownBase) }, { listLane: false }));
    // Data-version reads on this file's database (the worker's earlier files may still have one under way).
    let versionReads = 0;
    const reads = () => versionReads;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (this.database === t.database.name && (args[0] as { name?: string }).name === 'read-data-version-number') versionReads++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      // Text beyond ASCII (typographic quotes and dashes, as the feeds write them): the answer is put together from each
      // item's bytes, and must be the bytes JSON.stringify gives for the whole answer.
      await insertRoadmapItem(t.database.db, { title: 'Büro rollout – “recap” for Teams’ rooms', description: '<p>Räume ‘recap’ — überall</p>' });
      passedOn.length = 0;
      const plainText = await rawRequest(withLane.url, 'GET', '/api/unified/items?search=rollout%20rec');
      expect(plainText.status).toBe(200);
      const text = plainText.body.toString('utf8');
      expect(text).toContain('“recap”');
      expect(text).toBe(JSON.stringify(JSON.parse(text)));
      for (const [path, encoding] of [
        ['/api/unified/items?search=recap%20notes&limit=4', 'gzip, deflate, br, zstd'],
        ['/api/unified/items?search=meeting%20fea&page=2&limit=3', undefined],
        ['/api/unified/items?sources=messages&limit=2&sortField=modifiedDate', 'gzip'],
      ] as const) {
        const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
        versionReads = 0;
        const made = await rawRequest(withLane.url, 'GET', path, headers);
        expect(made.status).toBe(200);
        expect(reads()).toBe(1);
        const byRoute = await rawRequest(plainOwn.url, 'GET', path, headers);
        expect(comparable(made, false)).toEqual(comparable(byRoute, false));
      }
      expect(passedOn).toEqual([]);
    } finally {
      pg.Client.prototype.query = original;
      await plainOwn.close();
    }
  });

  it('revalidation: the current ETag gets 304 (GET and HEAD), another ETag or no-cache the whole answer', async () => {
    passedOn.length = 0;
    for (const encoding of ['br', 'gzip', 'identity']) {
      const first = await both('GET', '/api/unified/items?limit=5', { 'Accept-Encoding': encoding });
      const etag = first.headers.etag!;
      const again = await both('GET', '/api/unified/items?limit=5', { 'Accept-Encoding': encoding, 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect((await both('HEAD', '/api/unified/items?limit=5', { 'Accept-Encoding': encoding, 'If-None-Match': `"other", ${etag}` })).status).toBe(304);
      expect((await both('GET', '/api/unified/items?limit=5', { 'Accept-Encoding': encoding, 'If-None-Match': '"other"' })).status).toBe(200);
      const noCache = { 'Accept-Encoding': encoding, 'If-None-Match': etag, 'Cache-Control': 'no-cache' };
      expect((await both('GET', '/api/unified/items?limit=5', noCache)).status).toBe(200);
    }
    expect(passedOn).toEqual([]);
  });

  it("keeps a caller's plain X-Request-Id and replaces anything else; logs the same line, secrets left out", async () => {
    passedOn.length = 0;
    const kept = await both('GET', '/api/unified/items?limit=2', { 'X-Request-Id': 'proxy-7f3a:1' });
    expect(kept.headers['x-request-id']).toBe('proxy-7f3a:1');
    const replaced = await both('GET', '/api/unified/items?limit=2', { 'X-Request-Id': 'bad id <script>' });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(accessLine(accessLines.lane)).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/unified/items?limit=2' },
      res: { statusCode: 200 },
    });
    expect(passedOn).toEqual([]);
  });

  it('closes the connection of every answer once a shutdown began', async () => {
    passedOn.length = 0;
    stopping = true;
    try {
      const res = await both('GET', '/api/unified/items?limit=2');
      expect(res.headers.connection).toBe('close');
    } finally {
      stopping = false;
    }
    expect(passedOn).toEqual([]);
  });

  it('hands to Express what it does not answer, which answers it as before', async () => {
    passedOn.length = 0;
    const cases: [method: string, path: string, headers: Record<string, string>, status: number][] = [
      ['GET', '/api/unified/items?limit=abc', {}, 400],
      ['GET', '/api/unified/items?limit=1001', {}, 400],
      ['GET', '/api/unified/items?sortField=nope', {}, 400],
      ['GET', '/api/unified/items?sinceLastVisit=true', {}, 401],
      ['GET', '/api/unified/items/', {}, 200],
      ['GET', '/API/Unified/Items?limit=2', {}, 200],
      ['GET', '/api/unified/itemsx', {}, 404],
      ['GET', '/api/unified/items?limit=2', { Cookie: staffCookie }, 200],
      ['GET', '/api/unified/items?limit=2', { Authorization: 'Bearer not-a-token' }, 401],
      ['POST', '/api/unified/items', {}, 404],
    ];
    for (const [method, path, headers, status] of cases) {
      expect((await both(method, path, headers)).status).toBe(status);
    }
    expect(passedOn.filter((p) => /unified\/items/i.test(p))).toEqual(cases.map(([method, path]) => `${method} ${path}`));
  });

  it('a list that fails to load: Express gives its error answer, with the one request id and access line the lane began', async () => {
    // A real failure: both apps on a pool that has been closed.
    const broken = connectDatabase(t.database.url);
    await broken.close();
    const base = { ...t.ctx, pool: broken.pool, db: broken.db };
    const lines: { lane: Record<string, unknown>[]; express: Record<string, unknown>[] } = { lane: [], express: [] };
    const fellBack: string[] = [];
    const laneApp = createApp(
      { ...base, log: capture(lines.lane), services: createServices(base) },
      { onListLaneFallback: (req) => fellBack.push(`${req.method} ${req.url}`) },
    );
    const plainApp = createApp({ ...base, log: capture(lines.express), services: createServices(base) }, { listLane: false });
    const [a, b] = [await serve(laneApp), await serve(plainApp)];
    try {
      const lane = await rawRequest(a.url, 'GET', '/api/unified/items?limit=2', { 'X-Request-Id': 'req-broken-1' });
      const plain = await rawRequest(b.url, 'GET', '/api/unified/items?limit=2', { 'X-Request-Id': 'req-broken-1' });
      expect(lane.status).toBeGreaterThanOrEqual(500);
      expect(comparable(lane, true)).toEqual(comparable(plain, true));
      await new Promise((r) => setImmediate(r));
      const completed = (l: Record<string, unknown>[]) => l.filter((x) => x.msg === 'request completed');
      expect(completed(lines.lane)).toHaveLength(1);
      expect(accessLine(lines.lane)).toEqual(accessLine(lines.express));
      expect(fellBack).toEqual(['GET /api/unified/items?limit=2']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('never serves a staff answer to an anonymous caller: the session cookie goes through Express', async () => {
    passedOn.length = 0;
    const staff = await both('GET', '/api/unified/items?limit=3', { Cookie: staffCookie, 'Accept-Encoding': 'identity' });
    const anonymous = await both('GET', '/api/unified/items?limit=3', { 'Accept-Encoding': 'identity' });
    expect(passedOn).toEqual(['GET /api/unified/items?limit=3']);
    expect(JSON.parse(staff.body.toString()).items[0]).toHaveProperty('moderatorNotes');
    expect(JSON.parse(anonymous.body.toString()).items[0]).not.toHaveProperty('moderatorNotes');
  });
});
