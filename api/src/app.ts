import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import crypto from 'node:crypto';
import { pinoHttp } from 'pino-http';
import { endpointList, type RuntimeConfig } from '@radar/contracts';
import type { AppContext } from './app-context.js';
import { impersonationEnabled } from './config.js';
import { sessionMiddleware } from './http/auth.js';
import { bearerTokenMiddleware } from './http/bearer-auth.js';
import { apiNotFound, errorMiddleware } from './http/error-middleware.js';
import { originCheck } from './http/origin-check.js';
import { mountStaticBundles } from './http/static-bundles.js';
import { featureEndpoints } from './features/index.js';
import { mountEndpoints } from './http/endpoints.js';

export interface CreateAppOptions {
  /** Where shell/dist and mfe-*\/dist are; omit to serve the api only (tests). */
  staticRoot?: string;
  runtimeConfig?: () => RuntimeConfig;
  /** Check every answer against its contract (default: when NODE_ENV is test). */
  validateResponses?: boolean;
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
    }),
  );
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The shell page carries an inline runtime-config script; MUI/emotion inject styles at run time.
          'script-src': ["'self'", "'unsafe-inline'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'connect-src': ["'self'"],
          'upgrade-insecure-requests': config.PUBLIC_URL?.startsWith('https') ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: config.PUBLIC_URL?.startsWith('https') ? undefined : false,
    }),
  );
  // Every /api request: the Origin check, the session (from the cookie, or an API token in Authorization; bodies are parsed per endpoint, after its
  // access check), and no caching of answers that may be personal.
  app.use(
    '/api',
    originCheck(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []),
    sessionMiddleware({
      db: ctx.db,
      clock: ctx.clock,
      sessionTtlMs: config.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
      impersonationEnabled: impersonationEnabled(config),
    }),
    bearerTokenMiddleware({ db: ctx.db, clock: ctx.clock }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
  );
  mountEndpoints(app, featureEndpoints.flatMap((factory) => factory(ctx)), {
    table: endpointList,
    bodyLimit: config.BODY_LIMIT,
    validateResponses: options.validateResponses ?? config.NODE_ENV === 'test',
  });
  app.use('/api', apiNotFound);
  if (options.staticRoot && options.runtimeConfig) {
    const served = mountStaticBundles(app, { root: options.staticRoot, runtimeConfig: options.runtimeConfig });
    if (!served) log.warn({ root: options.staticRoot }, 'front-end bundles not built: run `npm run build`; serving the api only');
  }
  app.use(errorMiddleware(log, config.NODE_ENV === 'development'));
  return app;
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
