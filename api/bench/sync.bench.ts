import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { createGraphMessagesClient } from '../src/sources/graph-messages.js';
import { createRoadmapFeedClient } from '../src/sources/roadmap-feed.js';
import { createSyncService } from '../src/features/sync/sync.service.js';
import { messagesLoader, roadmapLoader } from '../src/features/sync/wiring.js';
import { DEFAULT_BROWSER_USER_AGENT } from '../src/config.js';
import { CLIENT_ID, CLIENT_SECRET, readFixture, startReplayServer, TENANT } from '../test/replay-server.js';
import { withBenchDatabase } from './bench-db.js';
import { measuresTable, type Bench } from './run.js';

/**
 * Full sync of 2,000 roadmap items and 750 messages, then a re-sync with no changes, through the production
 * clients (HTTP, zod, normalisation) against the replay server and a real PostgreSQL. Items are generated from
 * the recorded fixtures' shapes with distinct ids and text, so sizes resemble the real feeds (bodies ~2 KB).
 */
function generate() {
  const roadmapTemplates = JSON.parse(readFixture('roadmap-a.json')) as Record<string, unknown>[];
  const messageTemplates = JSON.parse(readFixture('messages-a.json')) as Record<string, unknown>[];
  const filler = 'Admins can manage this feature from the admin center; users see it by default once it rolls out. ';
  const roadmap = Array.from({ length: 2000 }, (_, i) => ({
    ...roadmapTemplates[i % roadmapTemplates.length],
    id: 100000 + i,
    title: `Microsoft Teams: Generated feature number ${i}`,
    description: `Generated description ${i}. ${filler.repeat(3)}`,
  }));
  const messages = Array.from({ length: 750 }, (_, i) => {
    const t = messageTemplates[i % messageTemplates.length] as { body: { content: string } };
    return {
      ...t,
      id: `MC${2000000 + i}`,
      title: `Generated announcement ${i}`,
      endDateTime: '2099-01-01T00:00:00Z',
      details: [
        { name: 'RoadmapIds', value: `${100000 + i},${100000 + ((i * 7) % 2000)}` },
        { name: 'Summary', value: `Summary ${i}. ${filler}` },
      ],
      body: { contentType: 'html', content: `<p>${t.body.content}</p>${`<p>${filler}</p>`.repeat(18)}` },
    };
  });
  return { roadmap: JSON.stringify(roadmap, null, 2), messages };
}

async function run(): Promise<string> {
  const { roadmap, messages } = generate();
  const server = await startReplayServer({ roadmaps: { G: roadmap }, messages: { G: messages }, pageSize: 100 });
  try {
    return await withBenchDatabase({ poolMax: 4 }, async (database) => {
      const log = createLogger('silent');
      const retry = { timeoutMs: 30_000, retries: 0 };
      const roadmapClient = createRoadmapFeedClient({ url: server.roadmapUrl, userAgent: DEFAULT_BROWSER_USER_AGENT, ...retry });
      const graph = createGraphMessagesClient({
        tenantId: TENANT,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        authorityUrl: server.url,
        apiUrl: server.graphApiUrl,
        clock: systemClock,
        ...retry,
      });
      // The re-sync must really read and compare: without the previous response it cannot end as unchanged early.
      const fetchRoadmap = roadmapLoader(roadmapClient);
      const sync = createSyncService({
        db: database.db,
        pool: database.pool,
        clock: systemClock,
        log,
        fetchRoadmap: (ctx) => fetchRoadmap({ ...ctx, previous: null }),
        fetchMessages: messagesLoader(graph),
      });
      const timed = async () => {
        const start = performance.now();
        const r = await sync.syncRoadmap({ trigger: 'cli' });
        const m = await sync.syncMessages({ trigger: 'cli' });
        if (r.run.status !== 'success' || m.run.status !== 'success') throw new Error(`bench sync failed: ${r.run.errorMessage ?? m.run.errorMessage}`);
        return { ms: performance.now() - start, r: r.run, m: m.run };
      };
      const full = await timed();
      const again = await timed();
      if (again.r.changedItems + again.m.changedItems + again.r.newItems + again.m.newItems !== 0) throw new Error('re-sync found changes');
      return [
        'api/bench/sync.bench.ts. Both feeds served over HTTP by the replay server, fetched by the production clients (Graph in 8 pages),',
        'validated, normalised and applied in one transaction per source to a real PostgreSQL 18 (embedded, fsync off).',
        '',
        measuresTable([
          { name: 'full sync (empty database)', ms: full.ms, targetMs: 5000, note: `${full.r.newItems} + ${full.m.newItems} new` },
          { name: 're-sync, no changes', ms: again.ms, targetMs: 2000, note: '0 new, 0 changed, 0 history rows' },
        ]),
      ].join('\n');
    });
  } finally {
    await server.close();
  }
}

const bench: Bench = { title: 'Sync: 2,000 roadmap items + 750 Message Center posts', run };
export default bench;
