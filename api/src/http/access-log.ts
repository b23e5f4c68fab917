import type { Express, RequestHandler } from 'express';
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** This request's id: its X-Request-Id header, or a new UUID (sent back in X-Request-Id). */
    id: string;
    /** A logger whose lines carry this request's id (`reqId`), made on first use. */
    log: Logger;
  }
}

/** A caller's X-Request-Id is kept when it looks like one (a proxy's id); anything else is replaced by a new UUID. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Paths whose answers are not logged: probes, and everything outside /api (pages, scripts, manifests). */
const isLogged = (url: string) => url.startsWith('/api');

/** Query parameters that carry a secret (the signed links of confirmation and unsubscribe mails): never logged. */
const SECRET_PARAMS = /([?&](?:token|code|key)=)[^&#]*/gi;
const loggedUrl = (url: string) => (url.includes('=') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url);

/**
 * Request ids and the access log: every answer carries X-Request-Id (the caller's when it is a plain id of at most 128
 * characters, else a new UUID), and every /api request gets one line when its answer is finished or the connection
 * closes before that — `request completed` at info (warn for 4xx, error for 5xx), `request aborted` at warn — with the
 * request (id, method, URL without the values of secret query parameters, address), the status and the time taken
 * (`responseTime`, ms).
 *
 * Our own rather than pino-http: pino-http makes a child logger with the serialised request for every request,
 * logged or not, which was a sixteenth of a cached list answer's CPU (docs/benchmarks.md, "Items API speed"). Here
 * `req.log` is made only when something logs through it (error-middleware, the export's stall detection).
 */
export function accessLog(app: Express, access: AccessLog): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Express['request']) {
      const child = access.log.child({ reqId: this.id });
      Object.defineProperty(this, 'log', { value: child, configurable: true, writable: true });
      return child;
    },
  });
  return (req, res, next) => {
    // A request the list's lane began and then handed over already has its id and access line.
    if (typeof req.id !== 'string') req.id = access.begin(req, res);
    next();
  };
}

/** The request id and access line of one request, for the Express middleware above and the item list's lane. */
export interface AccessLog {
  log: Logger;
  /** Gives the request its id (sent in X-Request-Id) and, for /api, logs its line when the answer ends. */
  begin(req: IncomingMessage, res: ServerResponse): string;
}

export function createAccessLog(log: Logger): AccessLog {
  // Access lines hold the fixed fields below, with secrets already taken out of the URL: the logger's redaction
  // (wildcard paths, run on every line) is skipped for them.
  const lines = log.child({}, { redact: [] });
  return {
    log,
    begin(req, res) {
      const header = req.headers['x-request-id'];
      const id = typeof header === 'string' && REQUEST_ID.test(header) ? header : crypto.randomUUID();
      res.setHeader('x-request-id', id);
      const url = req.url ?? '';
      if (!isLogged(url)) return id;
      const started = performance.now();
      let done = false;
      const line = (aborted: boolean) => {
        if (done) return;
        done = true;
        const status = res.statusCode;
        const record = {
          req: { id, method: req.method, url: loggedUrl(url), remoteAddress: req.socket.remoteAddress },
          res: { statusCode: status },
          responseTime: Math.round(performance.now() - started),
        };
        if (aborted) lines.warn(record, 'request aborted');
        else if (status >= 500) lines.error(record, 'request completed');
        else if (status >= 400) lines.warn(record, 'request completed');
        else lines.info(record, 'request completed');
      };
      res.once('finish', () => line(false));
      res.once('close', () => line(!res.writableFinished));
      return id;
    },
  };
}
