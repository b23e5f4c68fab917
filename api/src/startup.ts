import type { AppContext } from './app-context.js';
import { initialSyncTask } from './sync/initial-sync.js';

export interface StartupEnv {
  isEmbedded: boolean;
}

/** Work run once after the server is up (first sync on an empty database, demo data offline). A feature adds one line. */
export const startupTasks: Array<(ctx: AppContext, env: StartupEnv) => Promise<void>> = [initialSyncTask];
