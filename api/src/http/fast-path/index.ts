import type { RequestHandler } from 'express';
import type { FastPathPart } from './parts.js';
import { series } from './series.js';

/**
 * The fast path: four places where the api steps around Express for speed, each measured (docs/benchmarks.md,
 * "Figures behind the code") and each answering exactly as the plain path does. FAST_PATH turns them on and off
 * (`all`, `off`, or a comma list of the parts), so a bench can weigh each and a suspected difference can be ruled out
 * by turning one off. docs/fast-path.md says what a new middleware must also do here.
 *
 * - `list-lane`: an anonymous GET of /api/unified/items is answered from the list's answer cache before Express.
 * - `exact-routes`: routes without path parameters are found by one map lookup instead of the router's walk.
 * - `series`: the chain every /api request runs is one middleware layer instead of five.
 * - `precomputed-headers`: helmet runs once at start-up and its headers are copied onto each response.
 */
export { FAST_PATH_PARTS, type FastPathPart } from './parts.js';

export interface FastPath {
  listLane: boolean;
  exactRoutes: boolean;
  series: boolean;
  precomputedHeaders: boolean;
}

/** The parts a FAST_PATH value turns on (the config schema has checked every name already). */
export function fastPathOf(parts: readonly FastPathPart[]): FastPath {
  const on = new Set(parts);
  return { listLane: on.has('list-lane'), exactRoutes: on.has('exact-routes'), series: on.has('series'), precomputedHeaders: on.has('precomputed-headers') };
}

/** Middleware to run in order: as one layer when the fast path's `series` is on, else as separate layers. */
export function chain(fastPath: FastPath, ...handlers: RequestHandler[]): RequestHandler[] {
  return fastPath.series ? [series(...handlers)] : handlers;
}

export { createExactRoutes } from './exact-routes.js';
export { createListLane, type ListLane, type ListLaneDeps } from './list-lane.js';
export { series } from './series.js';
