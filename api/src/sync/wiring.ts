import type { Config } from '../config.js';
import type { BaseDeps } from '../deps.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../logger.js';
import { createGraphMessagesClient, type GraphMessagesClient } from '../sources/graph-messages.js';
import { createRoadmapFeedClient, type RoadmapFeedClient } from '../sources/roadmap-feed.js';
import { createSyncService, type SyncChangeSet, type SyncService } from './sync.service.js';

export interface FeedClients {
  roadmap: RoadmapFeedClient;
  graph: GraphMessagesClient;
}

/** The production feed clients, configured from env (config.ts: ROADMAP_FEED_URL, GRAPH_*, FEED_*). */
export function createFeedClients(config: Config, clock: Clock, log: Logger): FeedClients {
  const retry = { timeoutMs: config.FEED_TIMEOUT_MS, retries: config.FEED_RETRIES, log };
  return {
    roadmap: createRoadmapFeedClient({ url: config.ROADMAP_FEED_URL, ...retry }),
    graph: createGraphMessagesClient({
      tenantId: config.GRAPH_TENANT_ID,
      clientId: config.GRAPH_CLIENT_ID,
      clientSecret: config.GRAPH_CLIENT_SECRET,
      authorityUrl: config.GRAPH_AUTHORITY_URL,
      apiUrl: config.GRAPH_API_URL,
      clock,
      ...retry,
    }),
  };
}

/**
 * The sync service as the process uses it. `onItemsChanged` is where subscriber notifications plug in (digest
 * issue); until then changes are only logged by the service.
 */
export function createSyncServiceFor(
  base: Pick<BaseDeps, 'config' | 'db' | 'pool' | 'clock' | 'log'>,
  hooks: { onItemsChanged?: (changes: SyncChangeSet) => Promise<void> | void; clients?: FeedClients } = {},
): SyncService {
  const clients = hooks.clients ?? createFeedClients(base.config, base.clock, base.log);
  return createSyncService({
    db: base.db,
    pool: base.pool,
    clock: base.clock,
    log: base.log,
    fetchRoadmap: () => clients.roadmap.fetchSnapshot(),
    fetchMessages: () => clients.graph.fetchAll(),
    onItemsChanged: hooks.onItemsChanged,
  });
}
