import type { FastPathPart } from './parts.js';

/**
 * The fast path: where the api steps around Express for speed, answering exactly as the plain path does. FAST_PATH
 * turns it on and off (`all`, `off`, or a comma list of the parts), so a bench can weigh it and a suspected difference
 * can be ruled out by turning it off. docs/fast-path.md says what a new middleware must also do here, and which
 * bypasses were measured and removed because they bought nothing.
 *
 * - `list-lane`: an anonymous GET of /api/unified/items is answered from the list's answer cache before Express.
 */
export { FAST_PATH_PARTS, type FastPathPart } from './parts.js';

export interface FastPath {
  listLane: boolean;
}

/** The parts a FAST_PATH value turns on (the config schema has checked every name already). */
export function fastPathOf(parts: readonly FastPathPart[]): FastPath {
  return { listLane: parts.includes('list-lane') };
}

export { createListLane, type ListLane, type ListLaneDeps } from './list-lane.js';
