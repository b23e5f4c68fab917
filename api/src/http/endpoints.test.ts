import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { defineEndpoints, endpointList, endpoints } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../test/context.js';
import { signInWithRoles } from '../../test/auth-helpers.js';
import { errorMiddleware } from './error-middleware.js';
import { createCallerReads, implement, implementCallerRead, mountEndpoints, Reply } from './endpoints.js';
import type { RequestAuth } from './auth.js';
import { createLogger } from '../logger.js';

const demo = defineEndpoints('demo', {
  echo: {
    method: 'POST',
    path: '/api/demo/:id',
    summary: 'echo',
    access: 'public',
    params: z.object({ id: z.coerce.number().int() }),
    body: z.object({ name: z.string().min(1, 'name is required') }),
    status: [201],
    response: z.object({ id: z.number(), name: z.string() }),
  },
  broken: { method: 'GET', path: '/api/demo-broken', summary: 'breaks its contract', access: 'public', response: z.object({ n: z.number() }) },
});

function demoApp(validateResponses: boolean) {
  const app = express();
  mountEndpoints(
    app,
    [
      implement(demo.echo, ({ params, body }) => ({ id: params.id, name: body.name })),
      implement(demo.broken, () => ({ n: 'not a number' }) as unknown as { n: number }),
    ],
    { table: Object.values(demo), bodyLimit: '1kb', validateResponses },
  );
  app.use(errorMiddleware(createLogger('silent'), false));
  return app;
}

describe('mountEndpoints', () => {
  it('parses params and body with the contract and answers the first declared status', async () => {
    const res = await request(demoApp(true)).post('/api/demo/7').send({ name: 'x' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 7, name: 'x' });
    const bad = await request(demoApp(true)).post('/api/demo/seven').send({});
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['id']);
  });

  it('fails an answer that breaks its contract while responses are checked, and only then', async () => {
    const checked = await request(demoApp(true)).get('/api/demo-broken');
    expect(checked.status).toBe(500);
    const unchecked = await request(demoApp(false)).get('/api/demo-broken');
    expect(unchecked.status).toBe(200);
  });

  it('finds a parameterless route in any case, with a trailing slash and for HEAD; a route that passes a request on runs once', async () => {
    const ran: string[] = [];
    const table = defineEndpoints('exact', {
      list: { method: 'GET', path: '/api/exact/list', summary: 'list', access: 'public', response: z.object({ n: z.number() }) },
      passOn: { method: 'GET', path: '/api/exact/pass', summary: 'passes on', access: 'public', response: z.object({ n: z.number() }) },
    });
    const app = express();
    mountEndpoints(
      app,
      [
        implement(table.list, () => ({ n: 1 })),
        {
          ...implement(table.passOn, () => ({ n: 2 })),
          middleware: [
            (_req, _res, next) => {
              ran.push('passOn');
              next('route');
            },
          ],
        },
      ],
      { table: Object.values(table), bodyLimit: '1kb', validateResponses: true },
    );
    app.use((_req, res) => res.status(404).json({ fellThrough: true }));
    for (const path of ['/api/exact/list', '/API/Exact/List', '/api/exact/list/', '/api/exact/list?x=1']) {
      expect((await request(app).get(path)).body).toEqual({ n: 1 });
    }
    const head = await request(app).head('/api/exact/list');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/json/);
    expect((await request(app).get('/api/exact/listing')).status).toBe(404);
    expect((await request(app).get('/api/exact/pass')).body).toEqual({ fellThrough: true });
    expect(ran).toEqual(['passOn']);
  });

  it('refuses to start when the table and the handlers disagree', () => {
    const app = express();
    const opts = { table: Object.values(demo), bodyLimit: '1kb', validateResponses: false };
    expect(() => mountEndpoints(app, [implement(demo.echo, () => ({ id: 1, name: 'a' }))], opts)).toThrow(/without an implementation: GET \/api\/demo-broken/);
    const twice = [implement(demo.echo, () => ({ id: 1, name: 'a' })), implement(demo.echo, () => ({ id: 1, name: 'a' }))];
    expect(() => mountEndpoints(app, twice, opts)).toThrow(/implemented twice/);
    expect(() => mountEndpoints(app, [implement(endpoints.health.health, () => ({ status: 'ok' as const }))], opts)).toThrow(/not in the endpoint table/);
  });

  it('checks a Reply status against the contract', async () => {
    const app = express();
    mountEndpoints(app, [implement(demo.echo, () => Reply.status(200, { id: 1, name: 'a' })), implement(demo.broken, () => ({ n: 1 }))], {
      table: Object.values(demo),
      bodyLimit: '1kb',
      validateResponses: true,
    });
    app.use(errorMiddleware(createLogger('silent'), false));
    expect((await request(app).post('/api/demo/1').send({ name: 'a' })).status).toBe(500);
  });
});

describe('GETs answered from the caller alone (implementCallerRead)', () => {
  const reads = defineEndpoints('reads', {
    mine: { method: 'GET', path: '/api/reads/mine', summary: 'mine', access: 'signedIn', response: z.object({ email: z.string(), at: z.string() }) },
    staff: { method: 'GET', path: '/api/reads/staff', summary: 'staff', access: 'moderator', response: z.array(z.number()) },
    broken: { method: 'GET', path: '/api/reads/broken', summary: 'broken', access: 'signedIn', response: z.object({ n: z.number() }) },
    withParam: { method: 'GET', path: '/api/reads/:id', summary: 'param', access: 'signedIn', params: z.object({ id: z.string() }), response: z.object({}) },
  });
  const at = new Date('2026-11-27T10:00:00Z');
  const implementations = [
    implementCallerRead(reads.mine, (auth) => ({ email: auth.user.email, at: at as unknown as string })),
    implementCallerRead(reads.staff, () => [1, 2]),
    implementCallerRead(reads.broken, () => ({ n: 'x' }) as unknown as { n: number }),
  ];
  const caller = (roles: string[]): RequestAuth => {
    const named = roles.map((name, i) => ({ id: i + 1, name }));
    return {
      user: { id: 7, email: 'reader@example.com', firstName: null, lastName: null, profileImageUrl: null, lastLoginAt: null, emailVerifiedAt: null },
      realRoles: named,
      roles: named,
      impersonatedRole: null,
      sessionIdHash: 'h',
      sessionCreatedAt: at,
      sessionExpiresAt: at,
      verifiedWith: 'code',
      factorVerifiedAt: null,
      secondFactor: null,
    };
  };

  it('answers in-process with the JSON text its route sends, under the same access rule', async () => {
    const app = express();
    app.use((req, _res, next) => {
      req.auth = caller([]);
      next();
    });
    mountEndpoints(app, implementations, { table: [reads.mine, reads.staff, reads.broken], bodyLimit: '1kb', validateResponses: false });
    app.use(errorMiddleware(createLogger('silent'), false));
    const read = createCallerReads(implementations, { validate: false });
    const routeAnswer = await request(app).get('/api/reads/mine').expect(200);
    expect(await read(reads.mine, caller([]))).toBe(routeAnswer.text);
    // A moderator's read is not a plain user's, in-process as on the route.
    await request(app).get('/api/reads/staff').expect(403);
    expect(await read(reads.staff, caller([]))).toBeUndefined();
    expect(await read(reads.staff, caller(['Moderator']))).toBe('[1,2]');
    // An endpoint that is not a caller read is never answered in-process.
    expect(await read(endpoints.items.list, caller(['Admin']))).toBeUndefined();
  });

  it('checks the answer against its contract while responses are checked; refuses an endpoint that takes params', async () => {
    await expect(createCallerReads(implementations, { validate: true })(reads.broken, caller([]))).rejects.toThrow(/breaks its contract/);
    expect(await createCallerReads(implementations, { validate: false })(reads.broken, caller([]))).toBe('{"n":"x"}');
    expect(() => implementCallerRead(reads.withParam as never, () => ({}) as never)).toThrow(/not answered from the caller alone/);
  });
});

describe('the product mounts exactly the endpoint table', () => {
  let t: TestContext;
  beforeAll(async () => {
    // Impersonation on: its routes are the only ones a configuration switches off.
    t = await createTestContext({ IMPERSONATION_ENABLED: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no route that is not in the table', () => {
    // Express 5 keeps routes as layers with a `route` on the app's router stack.
    const stack = (t.app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
    const mounted = stack
      .filter((layer) => layer.route)
      .flatMap((layer) => Object.keys(layer.route!.methods).map((m) => `${m.toUpperCase()} ${layer.route!.path}`));
    const table = endpointList.map((e) => `${e.method} ${e.path}`);
    expect(mounted.sort()).toEqual(table.sort());
  });

  it('lists every method and path once, with its path params in its params schema', () => {
    const keys = endpointList.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of endpointList) {
      const names = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const shape = e.params ? Object.keys((e.params as z.ZodObject).shape) : [];
      expect({ id: e.id, params: shape.sort() }).toEqual({ id: e.id, params: names.sort() });
    }
  });

  it('checks access before reading a body: a guest gets 401 for an admin upload of any size', async () => {
    const big = JSON.stringify({ reportData: 'x'.repeat(11 * 1024 * 1024) });
    const res = await request(t.app).post('/api/admin/generate-summary').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(401);
  });

  it("applies an endpoint's own body limit to those allowed to call it", async () => {
    const cookie = await signInWithRoles(t, 'limits-admin@example.com', ['Admin']);
    const over = JSON.stringify({ reportData: 'x'.repeat(11 * 1024 * 1024) });
    const res = await request(t.app)
      .post('/api/admin/generate-summary')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Content-Type', 'application/json')
      .send(over);
    expect(res.status).toBe(413);
    const underDefault = await request(t.app)
      .post('/api/contact')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ firstName: 'Ann', lastName: 'Lee', email: 'a@example.com', message: 'x'.repeat(2 * 1024 * 1024) }));
    expect(underDefault.status).toBe(413);
  });
});
