import { loadConfig, type Config } from '../src/config.js';
import { fixedClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import type { SyncChangeSet } from '../src/features/sync/sync-types.js';
import { createFeedClients, createSyncServiceFor } from '../src/features/sync/wiring.js';
import { trackerPort } from '../src/features/trackers/tracker-port.js';
import { triageSnapshotReactor } from '../src/features/triage/triage-snapshot.js';
import { createTestDb, type TestDatabase } from './db.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT, type ReplayServer } from './replay-server.js';

/** Snapshot moments of the small fixtures (like the real files: 2026-01-31 and 2026-02-07). */
export const T_A = '2026-01-31T00:40:00Z';
export const T_B = '2026-02-07T00:40:00Z';
export const T_C = '2026-02-10T00:00:00Z';

export interface SyncHarness {
  database: TestDatabase;
  server: ReplayServer;
  clock: ReturnType<typeof fixedClock>;
  config: Config;
  sync: ReturnType<typeof createSyncServiceFor>;
  hookCalls: SyncChangeSet[];
  close(): Promise<void>;
}

/** A fresh database, a replay server and the production sync service pointed at it. */
export async function createSyncHarness(
  options: { graph?: boolean; env?: Record<string, string>; server?: Parameters<typeof startReplayServer>[0] } = {},
): Promise<SyncHarness> {
  const database = await createTestDb();
  const server = await startReplayServer(options.server);
  const clock = fixedClock(T_A);
  const config = loadConfig({
    NODE_ENV: 'test',
    // The roadmap chain as in production: the v2 API first (the replay server's v2 twin of each snapshot).
    ROADMAP_V2_URL: server.v2Url,
    ROADMAP_FEED_URL: server.roadmapUrl,
    GRAPH_AUTHORITY_URL: server.url,
    GRAPH_API_URL: server.graphApiUrl,
    FEED_TIMEOUT_MS: '1500',
    FEED_RETRIES: '0',
    // The small fixtures remove 2 of 12 items between snapshots (17%): the guard is off unless a test turns it on.
    SYNC_MAX_REMOVED_PERCENT: '100',
    ROADMAP_RSS_URL: server.rssUrl,
    ...(options.graph === false ? {} : { GRAPH_TENANT_ID: TENANT, GRAPH_CLIENT_ID: CLIENT_ID, GRAPH_CLIENT_SECRET: CLIENT_SECRET }),
    ...options.env,
  });
  const log = createLogger('silent');
  const hookCalls: SyncChangeSet[] = [];
  const clients = createFeedClients(config, clock, log, database.db);
  // As the process wires it: triage opens its records, and its rules run, with each snapshot.
  const sync = createSyncServiceFor(
    { config, db: database.db, pool: database.pool, clock, log },
    { clients, onItemsChanged: (c) => void hookCalls.push(c), reactors: [triageSnapshotReactor({ trackers: trackerPort, log })] },
  );
  return {
    database,
    server,
    clock,
    config,
    sync,
    hookCalls,
    close: async () => {
      await server.close();
      await database.close();
    },
  };
}
