import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import crypto from 'node:crypto';
import { pinoHttp } from 'pino-http';
import { endpointList, type RuntimeConfig } from '@radar/contracts';
import type { AppContext } from './app-context.js';
import { impersonationEnabled } from './config.js';
import { sessionMiddleware } from './http/auth.js';
import { bearerTokenMiddleware } from './http/bearer-auth.js';
import { contentSecurityPolicy, cspNonce } from './http/security-headers.js';
import { sessionCookieName, sessionPolicy } from './http/session-policy.js';
import { apiNotFound, errorMiddleware } from './http/error-middleware.js';
import { originCheck } from './http/origin-check.js';
import { mountStaticBundles } from './http/static-bundles.js';
import { featureEndpoints } from './features/index.js';
import { mountEndpoints } from './http/endpoints.js';
import { createHealthEndpoints } from './features/health.router.js';
import { logSerializers } from './logger.js';

export interface CreateAppOptions {
  /** Where shell/dist and mfe-*\/dist are; omit to serve the api only (tests). */
  staticRoot?: string;
  runtimeConfig?: () => RuntimeConfig;
  /** Check every answer against its contract (default: when NODE_ENV is test). */
  validateResponses?: boolean;
  /** True once a graceful shutdown began (main.ts): /readyz fails and kept-alive connections are closed. */
  isStopping?: () => boolean;
}

/** Builds the Express app from its dependencies; main.ts, the tests and the e2e server all use this. */
export function createApp(ctx: AppContext, options: CreateAppOptions = {}): Express {
  const { config, log } = ctx;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(config.TRUST_PROXY));
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const id = (req.headers['x-request-id'] as string | undefined) ?? crypto.randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || !req.url?.startsWith('/api') },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: {
        // Never a database client or socket in a log line (logger.ts).
        ...logSerializers,
        // Lean request and response records: pino-http serialises the request into a child logger on EVERY request
        // (logged or not), and the full records (every header, then redacted) were a tenth of a cached list answer's
        // CPU (docs/benchmarks.md, "Items API speed, issue 13").
        req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
          remoteAddress: req.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(cspNonce, contentSecurityPolicy(config));
  if (options.isStopping) {
    const isStopping = options.isStopping;
    // During a shutdown every answer closes its connection, so keep-alive clients reconnect to another instance.
    app.use((_req: Request, res: Response, next: NextFunction) => {
      if (isStopping()) res.setHeader('Connection', 'close');
      next();
    });
  }
  // Every /api request: the Origin check, the session (from the cookie, or an API token in Authorization; bodies are
  // parsed per endpoint, after its access check), and no caching of answers that may be personal.
  app.use(
    '/api',
    originCheck(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    sessionMiddleware({
      db: ctx.db,
      clock: ctx.clock,
      policy: sessionPolicy(config),
      cookieName: sessionCookieName(ctx.publicUrl),
      impersonationEnabled: impersonationEnabled(config),
    }),
    bearerTokenMiddleware({ db: ctx.db, clock: ctx.clock }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    compression({ filter: compressApiAnswer }),
  );
  const implementations = [...createHealthEndpoints(ctx, { isStopping: options.isStopping }), ...featureEndpoints.flatMap((factory) => factory(ctx))];
  mountEndpoints(app, implementations, {
    table: endpointList,
    bodyLimit: config.BODY_LIMIT,
    validateResponses: options.validateResponses ?? config.NODE_ENV === 'test',
  });
  app.use('/api', apiNotFound);
  if (options.staticRoot && options.runtimeConfig) {
    const base = options.runtimeConfig;
    // Where the remotes are comes from the remote registry (Admin → Remotes), read per page: a change applies on the next load.
    const runtimeConfig = async (): Promise<RuntimeConfig> => ({ ...base(), remotes: (await ctx.services.remotes.snapshot()).urls });
    const served = mountStaticBundles(app, { root: options.staticRoot, runtimeConfig });
    if (!served) log.warn({ root: options.staticRoot }, 'front-end bundles not built: run `npm run build`; serving the api only');
  }
  app.use(errorMiddleware(log, config.NODE_ENV === 'development'));
  return app;
}

/** The streamed CSV export's path, matched as Express routes it (any case, optional trailing slash). */
const EXPORT_PATH = /^\/api\/dashboard\/export\/?$/i;

/**
 * JSON answers are compressed (a list page is ~80 KB of JSON, ~16 KB with brotli). The CSV export is not: it is
 * streamed row by row with backpressure and its stall detection watches that stream; a compressor between them
 * buffers output in zlib, so stalls would be hidden and rows delayed. The export stays a plain stream.
 */
function compressApiAnswer(req: Request, res: Response): boolean {
  // Asked when the answer starts, after routing: req.path is no longer relative to the /api mount by then.
  if (EXPORT_PATH.test(req.originalUrl.split('?')[0] ?? '')) return false;
  return compression.filter(req, res);
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
