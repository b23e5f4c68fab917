import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isDatabaseBusyError } from '../db/client.js';
import { DomainError, InputError, NotFoundError, RateLimitError } from '../lib/errors.js';
import { statusOf } from './errors.js';

/** Unknown /api routes answer 404 JSON rather than the SPA page. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`No route for ${req.method} ${req.originalUrl.split('?')[0]}`));
};

/** Turns a zod error into the 400 body, naming each field. */
export function inputErrorFromZod(error: z.ZodError, where = 'Invalid input'): InputError {
  const issues = error.issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message }));
  const first = issues[0];
  const message = first ? (first.path === '(body)' ? first.message : `${first.path}: ${first.message}`) : where;
  return new InputError(message, issues);
}

/** Maps domain failures to status codes (http/errors.ts); logs 5xx once; never sends a stack trace outside development. */
export function errorMiddleware(log: Logger, exposeDetails: boolean): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let status = 500;
    let busy = false;
    let body: { name: string; message: string; issues?: { path: string; message: string }[] };
    if (err instanceof DomainError) {
      status = statusOf(err);
      body = { name: err.name, message: err.message, ...(err.issues ? { issues: err.issues } : {}) };
    } else if (err instanceof z.ZodError) {
      const input = inputErrorFromZod(err);
      status = 400;
      body = { name: input.name, message: input.message, issues: input.issues };
    } else if (err?.type === 'entity.parse.failed') {
      status = 400;
      body = { name: 'InputError', message: 'Request body is not valid JSON' };
    } else if (err?.type === 'entity.too.large') {
      status = 413;
      body = { name: 'PayloadTooLargeError', message: 'Request body is too large' };
    } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
      status = err.status;
      body = { name: err.name ?? 'Error', message: err.message ?? 'Bad request' };
    } else if (isDatabaseBusyError(err)) {
      // No pooled connection within DB_ACQUIRE_TIMEOUT_MS, or a statement cut by DB_STATEMENT_TIMEOUT_MS: overload,
      // not a bug. The client may try again; the load balancer sees /readyz fail meanwhile.
      status = 503;
      busy = true;
      body = { name: 'ServiceUnavailableError', message: 'The server is busy; please try again in a moment' };
    } else {
      body = { name: 'InternalError', message: exposeDetails ? String(err?.message ?? err) : 'Something went wrong on our side' };
    }
    if (busy) (req.log ?? log).warn({ err }, 'request refused: the database is busy');
    else if (status >= 500) (req.log ?? log).error({ err }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (busy) res.setHeader('Retry-After', '5');
    if (err instanceof RateLimitError && err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    res.status(status).json({ error: body });
  };
}
