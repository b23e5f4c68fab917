import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileErrors, validate } from '@readme/openapi-parser';
import request from 'supertest';
import { endpointList } from '@radar/contracts';
import { createTestContext, type TestContext } from '../../../test/context.js';
import { createApp } from '../../app.js';
import { openApiPath } from './openapi.js';
import { openApiDocumentFor } from './reference.endpoints.js';

let t: TestContext;
beforeAll(async () => {
  // Impersonation on: its routes are the only ones a configuration switches off, so every row is mounted.
  t = await createTestContext({ IMPERSONATION_ENABLED: 'true' });
});
afterAll(async () => {
  await t.close();
});

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  security: Record<string, unknown>[];
};
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(res.body));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it("names the app's public address as its server, each address's document generated once and kept", async () => {
    const first = (await request(t.app).get('/api/openapi.json')).body as Doc & { servers: unknown };
    expect(first.servers).toEqual([{ url: 'http://localhost:8080' }]);
    const other = createApp({ ...t.ctx, publicUrl: 'https://radar.example.com' });
    expect((await request(other).get('/api/openapi.json')).body.servers).toEqual([{ url: 'https://radar.example.com' }]);
    expect(openApiDocumentFor('https://radar.example.com')).toBe(openApiDocumentFor('https://radar.example.com'));
    expect((await request(t.app).get('/api/openapi.json')).body).toEqual(first);
  });

  it('documents every route the app mounts, with the method and path it is mounted on', async () => {
    const doc = (await request(t.app).get('/api/openapi.json')).body as Doc;
    const stack = (t.app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
    const mounted = stack
      .filter((layer) => layer.route)
      .flatMap((layer) => Object.keys(layer.route!.methods).map((m) => `${m.toUpperCase()} ${openApiPath(layer.route!.path)}`));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(mounted.length).toBe(endpointList.length);
    for (const route of mounted) expect(documented).toContain(route);
    expect(documented.sort()).toEqual(mounted.sort());
  });

  it('takes parameters, bodies and answers from the contracts', async () => {
    const doc = (await request(t.app).get('/api/openapi.json')).body as Doc;
    const list = doc.paths['/api/unified/items']!.get!;
    expect(list.operationId).toBe('items.list');
    const limit = list.parameters!.find((p) => p.name === 'limit')!;
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 } });
    expect(list.parameters!.find((p) => p.name === 'sortField')!.schema).toMatchObject({
      enum: ['createdDate', 'modifiedDate', 'releaseMoves', 'timing', 'due', 'relevance'],
    });
    const item = (list.responses['200']!.content!['application/json']!.schema as { properties: { items: { items: { required: string[] } } } }).properties.items
      .items;
    expect(item.required).toEqual(expect.arrayContaining(['id', 'source', 'title']));
    expect(list.security).toEqual([{}, { bearerAuth: [] }]);

    const history = doc.paths['/api/roadmap/items/{itemId}/history']!.get!;
    expect(history.parameters).toEqual([expect.objectContaining({ name: 'itemId', in: 'path', required: true })]);
    const signup = doc.paths['/api/auth/signup']!.post!;
    expect(signup.requestBody!.content['application/json']!.schema).toMatchObject({ required: ['firstName', 'lastName', 'email'] });
    const rss = doc.paths['/api/feeds/items.rss']!.get!;
    expect(Object.keys(rss.responses)).toEqual(expect.arrayContaining(['200', '304', '400']));
    expect(rss.responses['200']!.content).toHaveProperty('application/rss+xml');
    expect(doc.paths['/api/admin/roles']!.get!.security).toEqual([{ cookieAuth: [] }]);
    expect(doc.paths['/api/tokens']!.post!.security).toEqual([{ cookieAuth: [] }]);
  });

  it('describes the generic alert webhook (body from the contracts, signature headers) as an OpenAPI webhook', async () => {
    const doc = (await request(t.app).get('/api/openapi.json')).body as Doc & {
      webhooks: Record<string, { post: Operation & { description: string } }>;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const hook = doc.webhooks.radarAlert!.post;
    expect(hook.requestBody!.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/AlertWebhookPayload' });
    expect(hook.parameters!.map((p) => [p.name, p.in])).toEqual([
      ['X-Radar-Signature', 'header'],
      ['X-Radar-Timestamp', 'header'],
      ['X-Radar-Delivery', 'header'],
      ['X-Radar-Event', 'header'],
    ]);
    expect(hook.description).toContain('HMAC-SHA256');
    const payload = doc.components.schemas.AlertWebhookPayload!;
    expect(payload.required).toEqual(expect.arrayContaining(['type', 'id', 'trigger', 'window', 'channel', 'sections']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/saved-searches', '/api/alert-channels/{id}/deliveries']));
  });
});

describe('GET /api/docs', () => {
  it('serves the reference UI from local files, with scripts from this origin only', async () => {
    const page = await request(t.app).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[2]!.trim())).toEqual(['', '']);
    const srcs = scripts.map((m) => /src="([^"]+)"/.exec(m[1]!)![1]!);
    expect(srcs).toEqual(['/api/docs/swagger-ui-bundle.js', '/api/docs/docs-init.js']);
    for (const src of srcs) {
      const res = await request(t.app).get(src);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
    }
    expect((await request(t.app).get('/api/docs/docs-init.js')).text).toContain("url: '/api/openapi.json'");
    const css = await request(t.app).get('/api/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(page.text).not.toMatch(/https?:\/\//);
  });
});
