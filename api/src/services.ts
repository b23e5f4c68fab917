import type { BaseDeps } from './deps.js';

/**
 * The services shared by routes, jobs and the CLI, built once per process so that, for example, the sync service
 * an admin triggers is the same one the scheduled job uses. Each feature adds its service here.
 */
export interface Services {
  [name: string]: unknown;
}

export function createServices(_base: BaseDeps): Services {
  return {};
}
