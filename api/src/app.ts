import express, { type Express } from 'express';
import helmet from 'helmet';
import crypto from 'node:crypto';
import { pinoHttp } from 'pino-http';
import type { RuntimeConfig } from '@radar/contracts';
import type { AppContext } from './app-context.js';
import { impersonationEnabled } from './config.js';
import { sessionMiddleware } from './http/auth.js';
import { apiNotFound, errorMiddleware } from './http/error-middleware.js';
import { originCheck } from './http/origin-check.js';
import { mountStaticBundles } from './http/static-bundles.js';
import { createHealthRouter } from './features/health.router.js';
import { featureRouters } from './features/index.js';
import { logSerializers } from './logger.js';

export interface CreateAppOptions {
  /** Where shell/dist and mfe-*\/dist are; omit to serve the api only (tests). */
  staticRoot?: string;
  runtimeConfig?: () => RuntimeConfig;
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
      // Never a database client or socket in a log line (logger.ts).
      serializers: logSerializers,
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
  if (options.isStopping) {
    const isStopping = options.isStopping;
    // During a shutdown every answer closes its connection, so keep-alive clients reconnect to another instance.
    app.use((_req, res, next) => {
      if (isStopping()) res.setHeader('Connection', 'close');
      next();
    });
  }
  app.use(createHealthRouter(ctx, { isStopping: options.isStopping }));
  const api = express.Router();
  // A 30-day digest report (up to 1,000 items per source) is the one body that legitimately exceeds BODY_LIMIT.
  api.use('/admin/generate-summary', express.json({ limit: '10mb' }));
  api.use(express.json({ limit: config.BODY_LIMIT }));
  api.use(express.urlencoded({ extended: false, limit: config.BODY_LIMIT }));
  api.use(originCheck(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : []));
  api.use(
    sessionMiddleware({
      db: ctx.db,
      clock: ctx.clock,
      sessionTtlMs: config.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
      impersonationEnabled: impersonationEnabled(config),
    }),
  );
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  for (const factory of featureRouters) api.use(factory(ctx));
  api.use(apiNotFound);
  app.use('/api', api);
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
