import { createTestContext, type TestContext } from './context.js';
import { CLIENT_ID, CLIENT_SECRET, startReplayServer, TENANT, type ReplayServer } from './replay-server.js';

/**
 * A replay server and a real app (test context) whose roadmap and Graph feeds point at it, without retries.
 * `env` adds or overrides configuration keys; `opts` goes to createTestContext. Close the context, then the server.
 */
export async function createReplayTestContext(
  env: Record<string, string> = {},
  opts: Parameters<typeof createTestContext>[1] = {},
): Promise<{ t: TestContext; server: ReplayServer }> {
  const server = await startReplayServer();
  const t = await createTestContext(
    {
      // The roadmap chain as in production: the v2 API first (the replay server's v2 twin of each snapshot).
      ROADMAP_V2_URL: server.v2Url,
      ROADMAP_FEED_URL: server.roadmapUrl,
      GRAPH_AUTHORITY_URL: server.url,
      GRAPH_API_URL: server.graphApiUrl,
      GRAPH_TENANT_ID: TENANT,
      GRAPH_CLIENT_ID: CLIENT_ID,
      GRAPH_CLIENT_SECRET: CLIENT_SECRET,
      FEED_RETRIES: '0',
      ROADMAP_RSS_URL: server.rssUrl,
      // The small fixtures remove 2 of 12 items between snapshots (17%): the guard is off unless a test turns it on.
      SYNC_MAX_REMOVED_PERCENT: '100',
      ...env,
    },
    opts,
  );
  return { t, server };
}
