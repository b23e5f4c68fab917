import type { RequestHandler } from 'express';
import { series } from './series.js';

/** Express matches paths in any case and with or without one trailing slash; so does the lookup. */
function exactKey(method: string, path: string): string {
  const lower = path.toLowerCase();
  return `${method} ${lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower}`;
}

const RAN_EXACTLY = Symbol('ran from the exact-route map');

/**
 * Routes of parameterless endpoints found by one map lookup, in front of the router, which otherwise tests a request
 * against every route mounted before its own, one by one. Each such route is also mounted in order as usual, behind
 * `skipIfRan`: a request the map does not know (a path with parameters, HEAD, OPTIONS, an unknown path) goes on
 * through the router as before; so does one whose route passes it on, which then skips that route's second mounting.
 */
export function createExactRoutes() {
  const routes = new Map<string, RequestHandler>();
  const middleware: RequestHandler = (req, res, next) => {
    const route = routes.get(exactKey(req.method, req.path));
    if (!route) return next();
    (req as unknown as Record<symbol, boolean>)[RAN_EXACTLY] = true;
    void route(req, res, next);
  };
  const skipIfRan: RequestHandler = (req, _res, next) => next((req as unknown as Record<symbol, boolean>)[RAN_EXACTLY] ? 'route' : undefined);
  return {
    middleware,
    skipIfRan,
    add(method: string, path: string, chain: RequestHandler[]) {
      routes.set(exactKey(method, path), series(...chain));
    },
  };
}
