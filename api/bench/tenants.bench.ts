import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/logger.js';
import { createGraphMessagesClient } from '../src/sources/graph-messages.js';
import { createSyncService } from '../src/features/sync/sync.service.js';
import type { SyncTenant } from '../src/features/sync/sync-types.js';
import { healthLoader, messagesLoader } from '../src/features/sync/wiring.js';
import { createTenantsRepo } from '../src/features/tenants/tenants.repo.js';
import { readFixture } from '../test/replay-server.js';
import { startTenantGraphServer, type FakeTenant } from '../test/tenant-graph-server.js';
import { withBenchDatabase } from './bench-db.js';
import { measuresTable, type Bench } from './run.js';

const TENANTS = 200;
const POSTS_PER_TENANT = 800;
/** Posts every tenant receives; the rest of each tenant's 800 come from a window that moves with the tenant. */
const SHARED = 700;
const POOL = 1_000;
const CONCURRENCY = 4;
const RETRY_AFTER_SECONDS = 1;
const HOUR_MS = 3_600_000;
/** Service Health issues each tenant lists (a month of a large tenant's incidents and advisories), most shared. */
const ISSUES_PER_TENANT = 40;
const SHARED_ISSUES = 30;

/** A pool of posts shaped like the recorded ones (bodies ~2 KB), and which of them each tenant lists. */
function generate(): { tenants: FakeTenant[] } {
  const templates = JSON.parse(readFixture('messages-a.json')) as { body: { content: string } }[];
  const filler = 'Admins can manage this feature from the admin center; users see it by default once it rolls out. ';
  const pool = Array.from({ length: POOL }, (_, i) => {
    const t = templates[i % templates.length]!;
    return {
      ...t,
      id: `MC${3000000 + i}`,
      title: `Generated announcement ${i}`,
      endDateTime: '2099-01-01T00:00:00Z',
      lastModifiedDateTime: '2026-02-01T00:00:00Z',
      body: { contentType: 'html', content: `<p>${t.body.content}</p>${`<p>${filler}</p>`.repeat(18)}` },
    };
  });
  const issue = (i: number) => ({
    id: `EX${7000000 + i}`,
    title: `Generated incident ${i}: users may be unable to access mail`,
    impactDescription: 'Users may be unable to access their mailbox.',
    classification: i % 3 === 0 ? 'advisory' : 'incident',
    origin: 'microsoft',
    status: 'serviceRestored',
    service: 'Exchange Online',
    feature: 'E-Mail and calendar access',
    featureGroup: 'E-Mail and calendar access',
    isResolved: true,
    startDateTime: '2026-02-01T08:00:00Z',
    endDateTime: '2026-02-01T12:00:00Z',
    lastModifiedDateTime: '2026-02-01T12:00:00Z',
    posts: Array.from({ length: 5 }, (_, k) => ({
      createdDateTime: `2026-02-01T0${8 + (k % 2)}:${10 + k}:00Z`,
      postType: 'regular',
      description: { contentType: 'html', content: `<p>${filler.repeat(4)}</p>` },
    })),
  });
  const own = POSTS_PER_TENANT - SHARED;
  const tenants = Array.from({ length: TENANTS }, (_, n) => {
    const window = Array.from({ length: own }, (_, k) => pool[SHARED + ((n * 7 + k) % (POOL - SHARED))]!);
    return {
      directoryId: `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`,
      clientId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      secret: 'bench',
      messages: [...pool.slice(0, SHARED), ...window],
      issues: [
        ...Array.from({ length: SHARED_ISSUES }, (_, i) => issue(i)),
        ...Array.from({ length: ISSUES_PER_TENANT - SHARED_ISSUES }, (_, k) => issue(1000 + n * 10 + k)),
      ],
      // Graph throttles every tenant's first request of a round (429, Retry-After).
      throttle: { times: 1, retryAfterSeconds: RETRY_AFTER_SECONDS },
    };
  });
  return { tenants };
}

/**
 * One hourly round of 200 tenants × 800 Message Center posts (700 of them shared by every tenant) through a local
 * Graph that answers each tenant's first request with 429 and Retry-After: 1 s, at GRAPH_MAX_CONCURRENT_TENANTS = 4,
 * into a real PostgreSQL: the first round (every post new to each tenant) and a round where nothing changed. Target:
 * a round finishes well within the hour it repeats in.
 */
async function run(): Promise<string> {
  const { tenants } = generate();
  const graph = await startTenantGraphServer(tenants, { pageSize: 100 });
  try {
    return await withBenchDatabase({ poolMax: 8 }, async (database) => {
      const log = createLogger('silent');
      const repo = createTenantsRepo(database.db);
      const rows: SyncTenant[] = [];
      for (const [n, t] of tenants.entries()) {
        const row = await repo.insert({
          name: `Tenant ${n + 1}`,
          directoryId: t.directoryId,
          clientId: t.clientId,
          clientSecretSealed: 'unused',
          visibility: 'private',
        });
        rows.push({ id: row.id, name: row.name });
      }
      const byId = new Map(rows.map((r, n) => [r.id, tenants[n]!]));
      const clients = new Map(
        rows.map((r) => {
          const t = byId.get(r.id)!;
          const client = createGraphMessagesClient({
            tenantId: t.directoryId,
            clientId: t.clientId,
            clientSecret: t.secret,
            authorityUrl: graph.url,
            apiUrl: graph.url,
            clock: systemClock,
            timeoutMs: 30_000,
            retries: 2,
            log,
          });
          return [r.id, client] as const;
        }),
      );
      const sync = createSyncService({
        db: database.db,
        pool: database.pool,
        clock: systemClock,
        log,
        fetchRoadmap: async () => {
          throw new Error('not in this bench');
        },
        fetchMessages: async () => {
          throw new Error('not in this bench');
        },
        guard: { maxRemovedPercent: 10, minRemovedItems: 25 },
        tenants: {
          enabled: async () => rows,
          loader: async (t) => messagesLoader(clients.get(t.id)!),
          healthLoader: async (t) => healthLoader(clients.get(t.id)!),
          concurrency: CONCURRENCY,
        },
      });
      const round = async () => {
        for (const t of tenants) t.throttle = { times: 1, retryAfterSeconds: RETRY_AFTER_SECONDS };
        const start = performance.now();
        const result = await sync.syncMessageCenter({ trigger: 'schedule' });
        const ms = performance.now() - start;
        const failed = result.runs.filter((r) => r.result?.run.status !== 'success');
        if (failed.length) throw new Error(`${failed.length} tenant runs failed: ${failed[0]?.result?.run.errorMessage ?? failed[0]?.error?.message}`);
        const newItems = result.runs.reduce((n, r) => n + (r.result?.run.newItems ?? 0), 0);
        const changed = result.runs.reduce((n, r) => n + (r.result?.run.changedItems ?? 0), 0);
        return { ms, newItems, changed };
      };
      const first = await round();
      const again = await round();
      const healthRound = async () => {
        for (const t of tenants) t.throttle = { times: 1, retryAfterSeconds: RETRY_AFTER_SECONDS };
        const start = performance.now();
        const result = await sync.syncServiceHealth({ trigger: 'schedule' });
        const ms = performance.now() - start;
        const failed = result.runs.filter((r) => r.result?.run.status !== 'success');
        if (failed.length) throw new Error(`${failed.length} Service Health runs failed: ${failed[0]?.result?.run.errorMessage ?? failed[0]?.error?.message}`);
        return { ms, newItems: result.runs.reduce((n, r) => n + (r.result?.run.newItems ?? 0), 0) };
      };
      const health = await healthRound();
      const healthAgain = await healthRound();
      const { rows: counts } = await database.pool.query<{ items: number; links: number }>(
        `SELECT (SELECT count(*)::int FROM items) AS items, (SELECT count(*)::int FROM item_tenants) AS links`,
      );
      const throttled = graph.requests.filter((r) => r.endsWith('429')).length;
      const waitFloor = (TENANTS * RETRY_AFTER_SECONDS * 1000) / CONCURRENCY;
      return [
        `api/bench/tenants.bench.ts. ${TENANTS} tenants × ${POSTS_PER_TENANT} posts (${SHARED} shared by all, ${POOL} distinct), Graph in pages of 100`,
        `on a local server that answers each tenant's first request of a round with 429 and Retry-After: ${RETRY_AFTER_SECONDS} s (${throttled} such answers in`,
        `the four rounds), ${CONCURRENCY} tenants at once (GRAPH_MAX_CONCURRENT_TENANTS), applied one tenant after the other to a real PostgreSQL 18.`,
        `Then Service Health: ${ISSUES_PER_TENANT} issues a tenant (${SHARED_ISSUES} shared), each with 5 updates, through the same throttling.`,
        `Stored: ${counts[0]?.items} posts and issues, ${counts[0]?.links} item–tenant links. The waits Graph asks for alone take ${(waitFloor / 1000).toFixed(0)} s a round at this concurrency.`,
        '',
        measuresTable([
          {
            name: 'first round (every post new to each tenant)',
            ms: first.ms,
            targetMs: HOUR_MS,
            note: `${first.newItems} new posts, ${first.changed} changed`,
          },
          { name: 'next round, nothing changed', ms: again.ms, targetMs: HOUR_MS, note: `${again.newItems} new, ${again.changed} changed` },
          {
            name: `Service Health, first round (${ISSUES_PER_TENANT} issues × 5 updates a tenant)`,
            ms: health.ms,
            targetMs: HOUR_MS,
            note: `${health.newItems} new issues`,
          },
          { name: 'Service Health, next round, nothing changed', ms: healthAgain.ms, targetMs: HOUR_MS, note: `${healthAgain.newItems} new` },
        ]),
      ].join('\n');
    });
  } finally {
    await graph.close();
  }
}

const bench: Bench = { title: 'Tenants: an hourly round of 200 tenants × 800 posts through a throttling Graph', run };
export default bench;
