import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endpointList, endpoints, type RuntimeConfig } from '@radar/contracts';
import type { AppContext } from './app-context.js';
import { impersonationEnabled } from './config.js';
import { sessionMiddleware } from './http/auth.js';
import { bearerTokenMiddleware } from './http/bearer-auth.js';
import { accessLog, createAccessLog } from './http/access-log.js';
import { securityHeaderList, securityHeaders } from './http/security-headers.js';
import { fastPathOf } from './http/fast-path/index.js';
import { sessionCookieName, sessionPolicy } from './http/session-policy.js';
import { apiNotFound, errorMiddleware } from './http/error-middleware.js';
import { originCheck } from './http/origin-check.js';
import { createServerRender } from './http/server-render.js';
import { mountStaticBundles } from './http/static-bundles.js';
import { featureImplementations } from './features/index.js';
import { createLastVisitService } from './features/items/last-visit/last-visit.service.js';
import { checkJsonAnswer, createCallerReads, mountEndpoints, Reply } from './http/endpoints.js';
import { createListLane } from './http/fast-path/list-lane.js';
import { addressBeforeExpress } from './http/client-address.js';

export interface CreateAppOptions {
  /** Where shell/dist and mfe-*\/dist are; omit to serve the api only (tests). */
  staticRoot?: string;
  runtimeConfig?: () => RuntimeConfig;
  /** Check every answer against its contract (default: when NODE_ENV is test). */
  validateResponses?: boolean;
  /** True once a graceful shutdown began (main.ts): /readyz fails and kept-alive connections are closed. */
  isStopping?: () => boolean;
  /** Anonymous list requests answered in front of Express (http/fast-path/list-lane.ts); default: FAST_PATH's `list-lane`. */
  listLane?: boolean;
  /** Called for each request the list lane hands to Express (tests tell the two ways apart with it). */
  onListLaneFallback?: (req: IncomingMessage) => void;
}

/** Builds the Express app from its dependencies; main.ts, the tests and the e2e server all use this. */
export function createApp(ctx: AppContext, options: CreateAppOptions = {}): Express {
  const { config, log } = ctx;
  const app = express();
  const cookieName = sessionCookieName(ctx.publicUrl);
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(config.TRUST_PROXY));
  const access = createAccessLog(log);
  const fastPath = fastPathOf(config.FAST_PATH);
  app.use(accessLog(app, access));
  // The security headers never depend on the request: computed once, set by Express and by the list lane alike.
  const headers = securityHeaderList(config);
  app.use(securityHeaders(headers));
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
  const session = sessionMiddleware({
    db: ctx.db,
    clock: ctx.clock,
    policy: sessionPolicy(config),
    cookieName,
    impersonationEnabled: impersonationEnabled(config),
    secondFactor: config,
  });
  app.use(
    '/api',
    originCheck(config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [], cookieName),
    session,
    bearerTokenMiddleware({ db: ctx.db, clock: ctx.clock }),
    (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    compressApiAnswers(),
  );
  const implementations = featureImplementations(ctx, { isStopping: options.isStopping });
  const validateResponses = options.validateResponses ?? config.NODE_ENV === 'test';
  mountEndpoints(app, implementations, { table: endpointList, bodyLimit: config.BODY_LIMIT, validateResponses });
  app.use('/api', apiNotFound);
  if (options.staticRoot && options.runtimeConfig) {
    const base = options.runtimeConfig;
    // Where the remotes are comes from the remote registry (Admin → Remotes), read per page: a change applies on the next load.
    const runtimeConfig = async (): Promise<RuntimeConfig> => ({ ...base(), remotes: (await ctx.services.remotes.snapshot()).urls });
    const firstScreen = config.SERVER_RENDER
      ? createServerRender({
          root: options.staticRoot,
          list: ctx.services.itemList.forCaller,
          sessionUser: ctx.services.auth.sessionAnswer,
          reads: createCallerReads(implementations, { validate: validateResponses }),
          visitPreview: createLastVisitService(ctx).preview,
          clock: ctx.clock,
          log,
        })
      : undefined;
    // A signed-in user's page is rendered for them: the session is resolved as for the api. A page never fails for
    // it: when the lookup fails the page is the guest's, and the browser's own requests show the error.
    const pageSession: RequestHandler = (req, res, next) =>
      session(req, res, (error?: unknown) => {
        if (error) {
          log.warn({ err: error }, 'page served without its session: the session lookup failed');
          req.auth = null;
        }
        next();
      });
    const served = mountStaticBundles(app, { root: options.staticRoot, runtimeConfig, firstScreen, pageMiddleware: firstScreen ? [pageSession] : [] });
    if (!served) log.warn({ root: options.staticRoot }, 'front-end bundles not built: run `npm run build`; serving the api only');
  }
  app.use(errorMiddleware(log, config.NODE_ENV === 'development'));
  if (options.listLane ?? fastPath.listLane) {
    const lane = createListLane({
      answers: ctx.services.itemList.answers,
      clock: ctx.clock,
      access,
      securityHeaders: headers,
      sessionCookieName: cookieName,
      isStopping: options.isStopping,
      check: validateResponses ? (body) => checkJsonAnswer(endpoints.items.list, Reply.json(body)) : undefined,
      chargeMiss: (req) => ctx.services.missBudget.chargeGuest(req, addressBeforeExpress(app, req)),
    });
    // In front of everything Express does: app.listen's server and supertest both call app.handle.
    type Handle = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;
    const withHandle = app as unknown as { handle: Handle };
    const handle = withHandle.handle.bind(app);
    const passed = options.onListLaneFallback;
    withHandle.handle = (req, res, next) =>
      lane(req, res, () => {
        passed?.(req);
        handle(req, res, next);
      });
  }
  return app;
}

/**
 * Answers that do their own encoding, by path under /api as Express routes it (any case, optional trailing slash).
 * The CSV export is not compressed: it is streamed row by row with backpressure and its stall detection watches that
 * stream; a compressor between them buffers output in zlib, so stalls would be hidden and rows delayed. The item list
 * sends the brotli or gzip copy it keeps with each cached answer (features/items/list-answers.ts), so the compression
 * middleware (which wraps every response it sees, at a measurable cost: docs/benchmarks.md) is not run for it.
 */
const SELF_ENCODED_PATHS = /^\/(dashboard\/export|unified\/items)\/?$/i;

/** JSON answers are compressed (a list page shrinks to a fifth with brotli: docs/benchmarks.md), except the paths above. */
function compressApiAnswers(): RequestHandler {
  const compress = compression();
  return (req, res, next) => (SELF_ENCODED_PATHS.test(req.path) ? next() : compress(req, res, next));
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
