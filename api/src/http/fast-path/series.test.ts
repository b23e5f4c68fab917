import { describe, expect, it } from '@jest/globals';
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { series } from './series.js';

describe('series', () => {
  const errors: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(500).json({ error: err.message });
  };

  it('runs the handlers in order, then the next layer', async () => {
    const app = express();
    const seen: string[] = [];
    app.use(
      '/api',
      series(
        (req, _res, next) => {
          seen.push(`a ${req.path}`);
          next();
        },
        async (_req, res, next) => {
          await Promise.resolve();
          res.setHeader('X-B', 'b');
          seen.push('b');
          next();
        },
      ),
    );
    app.get('/api/x', (_req, res) => res.json({ seen }));
    const res = await request(app).get('/api/x');
    expect(res.body).toEqual({ seen: ['a /x', 'b'] });
    expect(res.headers['x-b']).toBe('b');
  });

  it('stops at an error passed on, thrown or rejected, and hands it to the error handler', async () => {
    for (const failing of [
      ((_req, _res, next) => next(new Error('passed'))) as express.RequestHandler,
      (() => {
        throw new Error('thrown');
      }) as express.RequestHandler,
      (async () => {
        await Promise.resolve();
        throw new Error('rejected');
      }) as express.RequestHandler,
    ]) {
      const app = express();
      let after = false;
      app.use(
        series(failing, (_req, _res, next) => {
          after = true;
          next();
        }),
      );
      app.get('/', (_req, res) => res.json({ reached: true }));
      app.use(errors);
      const res = await request(app).get('/');
      expect(res.status).toBe(500);
      expect(['passed', 'thrown', 'rejected']).toContain(res.body.error);
      expect(after).toBe(false);
    }
  });

  it('lets a handler answer and end the series', async () => {
    const app = express();
    app.use(series((_req, res) => void res.status(403).json({ refused: true })));
    app.get('/', (_req, res) => res.json({ reached: true }));
    expect((await request(app).get('/')).body).toEqual({ refused: true });
  });
});
