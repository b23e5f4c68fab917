import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createTestContext, type TestContext } from './context.js';
import { insertRoadmapItem } from './factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe('api core', () => {
  it('answers /healthz and /readyz with the database reachable', async () => {
    expect((await request(t.app).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await request(t.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.database).toBe('ok');
  });

  it('answers unknown api routes with a 404 JSON error', async () => {
    const res = await request(t.app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { name: 'NotFoundError', message: 'No route for GET /api/no-such-thing' } });
  });

  it('answers malformed JSON with a 400 and no stack trace', async () => {
    const res = await request(t.app).post('/api/contact').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Request body is not valid JSON');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts/);
  });

  it('refuses a state-changing request from another origin', async () => {
    const res = await request(t.app).post('/api/anything').set('Origin', 'https://evil.example').send({});
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('Cross-origin request refused');
  });

  it('sets security headers and a request id', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
  });

  it('has the built-in roles seeded', async () => {
    const { rows } = await t.database.pool.query('select name from roles order by name');
    expect(rows.map((r) => r.name)).toEqual(['Admin', 'Moderator', 'User']);
  });

  it('compresses JSON answers (the list from its cached copy, the rest on the fly), but never the streamed CSV export', async () => {
    for (let i = 0; i < 12; i++) await insertRoadmapItem(t.database.db, { description: `A description long enough to matter ${i}. `.repeat(5) });
    const list = await request(t.app).get('/api/unified/items').set('Accept-Encoding', 'gzip, deflate, br');
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(list.headers.vary).toMatch(/Accept-Encoding/);
    expect(list.body.items).toHaveLength(12);
    // HEAD: the same headers as the GET (the brotli copy's encoding, length and validator), no body.
    const head = await request(t.app).head('/api/unified/items').set('Accept-Encoding', 'gzip, deflate, br');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers.etag).toBe(list.headers.etag);
    expect(head.headers['content-length']).toBe(list.headers['content-length']);
    expect(head.text ?? '').toBe('');
    const reference = await request(t.app).get('/api/openapi.json').set('Accept-Encoding', 'gzip, deflate, br');
    expect(reference.status).toBe(200);
    expect(reference.headers['content-encoding']).toBe('br');
    expect(reference.headers.vary).toMatch(/Accept-Encoding/);
    expect(reference.body.openapi).toMatch(/^3\./);
    const csv = await request(t.app).get('/api/dashboard/export').set('Accept-Encoding', 'gzip, deflate, br');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-encoding']).toBeUndefined();
  });
});
