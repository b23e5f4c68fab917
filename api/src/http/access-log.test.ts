import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { captureLog } from '../../test/log-capture.js';
import { accessLog, createAccessLog } from './access-log.js';

function appWithLog() {
  const { log, records: lines } = captureLog();
  const app = express();
  app.use(accessLog(app, createAccessLog(log)));
  app.get('/api/ok', (_req, res) => res.json({ ok: true }));
  app.get('/api/missing', (_req, res) => res.status(404).json({ error: 'x' }));
  app.get('/api/broken', (req, res) => {
    req.log.error({ detail: 'why' }, 'handler failed');
    res.status(500).json({ error: 'x' });
  });
  app.get('/page', (_req, res) => res.send('<p>page</p>'));
  return { app, lines };
}

describe('access log', () => {
  it('logs one line per /api answer with its status, level by status, and the time taken; pages are not logged', async () => {
    const { app, lines } = appWithLog();
    await request(app).get('/api/ok?x=1').set('X-Request-Id', 'abc-123');
    await request(app).get('/api/missing');
    await request(app).get('/page');
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(2);
    expect(completed[0]).toMatchObject({ level: 30, req: { id: 'abc-123', method: 'GET', url: '/api/ok?x=1' }, res: { statusCode: 200 } });
    expect(typeof completed[0]!.responseTime).toBe('number');
    expect(completed[1]).toMatchObject({ level: 40, req: { method: 'GET', url: '/api/missing' }, res: { statusCode: 404 } });
  });

  it('never logs the signed token of a mail link', async () => {
    const { app, lines } = appWithLog();
    await request(app).get('/api/missing?token=eyJ.secret.sig&x=1');
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({ req: { url: '/api/missing?token=[redacted]&x=1' } });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('answers the request id (the caller’s or a new UUID), and req.log carries it', async () => {
    const { app, lines } = appWithLog();
    expect((await request(app).get('/page')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request(app).get('/page').set('X-Request-Id', 'given')).headers['x-request-id']).toBe('given');
    // Not a plain id, or too long for one: replaced, never echoed or logged.
    for (const odd of ['<script>', 'x'.repeat(129), 'a b']) {
      expect((await request(app).get('/page').set('X-Request-Id', odd)).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const broken = await request(app).get('/api/broken');
    const id = broken.headers['x-request-id'];
    expect(lines.find((l) => l.msg === 'handler failed')).toMatchObject({ level: 50, reqId: id, detail: 'why' });
    expect(lines.find((l) => l.msg === 'request completed' && (l.req as { id: string }).id === id)).toMatchObject({ level: 50 });
  });
});
