import compression from 'compression';
import express, { type Express, type Request, type Response } from 'express';
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

export interface CreateAppOptions {
  /** Where shell/dist and mfe-*\/dist are; omit to serve the api only (tests). */
  staticRoot?: string;
  runtimeConfig?: () => RuntimeConfig;
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
  app.use(createHealthRouter(ctx));
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
  api.use(compression({ filter: compressApiAnswer }));
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

/** Path of the streamed CSV export, relative to /api. */
const EXPORT_PATH = '/dashboard/export';

/**
 * JSON answers are compressed (a list page is ~80 KB of JSON, ~10 KB with brotli). The CSV export is not: it is
 * streamed row by row with backpressure and its stall detection watches that stream; a compressor between them
 * buffers output in zlib, so stalls would be hidden and rows delayed. The export stays a plain stream.
 */
function compressApiAnswer(req: Request, res: Response): boolean {
  if (req.path === EXPORT_PATH) return false;
  return compression.filter(req, res);
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
