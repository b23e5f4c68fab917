import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { NEW_WINDOW_DAYS, UPDATED_MESSAGE_MIN_GAP_MS, type DashboardStatsResponse, type Source } from '@radar/contracts';
import { unifiedItemStoredTextSql, type UnifiedItemRow } from '../item-mapper.js';
import { runSql } from '../items.repo.js';
import { tenantCondition } from '../item-query.js';
import { returned } from '../../../db/returned.js';
import { readDataVersionNumber } from '../../../db/data-version.js';
import { LruCache } from '../../../lib/lru-cache.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b);

/**
 * One answer per data version, shared by the requests that ask at once: the version is read before the data, so an
 * answer is never kept under a version newer than its content, and any committed write to items makes the next
 * request compute afresh. A failed computation is not kept.
 */
function perDataVersion<T>(pool: pg.Pool, compute: () => Promise<T>): () => Promise<T> {
  // Two entries: the current version's answer, and the previous one while requests that read it are still answered.
  const answers = new LruCache<T>({ entries: 2, weight: 2 });
  return async () => answers.load(String(await readDataVersionNumber(pool)), compute);
}

/**
 * The landing counts, featured items and filter lists are one answer for everyone (cached per data version): they
 * hold what a guest may see, the roadmap and the posts of public tenants (and of no tenant).
 */
const publicOnly = tenantCondition(undefined) ?? sql`true`;

export function createDashboardRepo(pool: pg.Pool) {
  // The filter lists scan every item (seconds at 100,000 items, docs/benchmarks.md) and every dashboard load asks for
  // them, while items change a few times an hour: computed once per data version.
  const filterOptions = perDataVersion(pool, async () => {
    const [products, statuses, tags, clouds] = await Promise.all([
      runSql<{ v: string }>(pool, sql`SELECT DISTINCT unnest(products) AS v FROM items WHERE NOT is_removed AND ${publicOnly}`),
      runSql<{ v: string }>(
        pool,
        sql`SELECT DISTINCT status AS v FROM items WHERE NOT is_removed AND ${publicOnly} AND source = 'roadmap' AND status IS NOT NULL`,
      ),
      runSql<{ v: string }>(pool, sql`SELECT DISTINCT unnest(tags) AS v FROM items WHERE NOT is_removed AND ${publicOnly} AND source = 'messages'`),
      runSql<{ v: string }>(pool, sql`SELECT DISTINCT unnest(cloud_instances) AS v FROM items WHERE NOT is_removed AND ${publicOnly} AND source = 'roadmap'`),
    ]);
    const list = (rows: { v: string }[]) =>
      rows
        .map((r) => r.v)
        .filter(Boolean)
        .sort(byName);
    return { products: list(products), roadmapStatuses: list(statuses), messageCenterTags: list(tags), cloudInstances: list(clouds) };
  });
  const filterCounts = perDataVersion(pool, async () => {
    const [statuses, tags] = await Promise.all([
      runSql<{ name: string; count: number }>(
        pool,
        sql`SELECT status AS name, count(*)::int AS count FROM items
              WHERE NOT is_removed AND ${publicOnly} AND source = 'roadmap' AND status IS NOT NULL GROUP BY status ORDER BY count DESC, status`,
      ),
      runSql<{ name: string; count: number }>(
        pool,
        sql`SELECT t AS name, count(*)::int AS count FROM items, unnest(tags) AS t
              WHERE NOT is_removed AND ${publicOnly} AND source = 'messages' GROUP BY t ORDER BY count DESC, t`,
      ),
    ]);
    return { roadmapStatuses: statuses, messageCenterTags: tags };
  });

  return {
    /** Distinct values over non-removed items; products span both sources (roadmap products and MC services). */
    filterOptions,
    /** Items per roadmap status and per Message Center tag, over non-removed items. */
    filterCounts,

    /**
     * Counts for the landing page and the dashboard header. New and Updated follow the row badges (shared-ui
     * item-rules, docs/product/dashboard.md): New = created/published within 7 days; Updated = roadmap created more than 7 days ago
     * and modified within 7 days after creation, message last updated within 7 days and at least 1 hour after
     * publication (a message can be both, as its badges can; a Service Health issue follows the message rules). Statuses
     * count the roadmap's and the posts' (an issue's status is shown by its own filter).
     */
    async stats(sources: Source[] | undefined, now: Date): Promise<DashboardStatsResponse> {
      const since = new Date(now.getTime() - NEW_WINDOW_DAYS * DAY_MS);
      const gap = `${UPDATED_MESSAGE_MIN_GAP_MS / 1000} seconds`;
      const sourceCond = sources?.length ? sql`AND source = ANY(${sql.param(sources)}::item_source[])` : sql``;
      const [counts, statuses, syncs, demo] = await Promise.all([
        runSql<{ roadmap: number; messages: number; health: number; newitems: number; updated: number; featured: number }>(
          pool,
          sql`SELECT
                count(*) FILTER (WHERE source = 'roadmap')::int AS roadmap,
                count(*) FILTER (WHERE source = 'messages')::int AS messages,
                count(*) FILTER (WHERE source = 'health')::int AS health,
                count(*) FILTER (WHERE created_date >= ${since} AND created_date <= ${now})::int AS newitems,
                count(*) FILTER (WHERE
                  (source = 'roadmap' AND created_date < ${since} AND modified_date >= ${since} AND modified_date <= ${now}
                     AND modified_date > created_date)
                  OR (source <> 'roadmap' AND modified_date >= ${since} AND modified_date <= ${now}
                     AND modified_date - created_date >= ${gap}::interval))::int AS updated,
                count(*) FILTER (WHERE is_featured)::int AS featured
              FROM items WHERE NOT is_removed AND ${publicOnly} ${sourceCond}`,
        ),
        runSql<{ name: string; count: number }>(
          pool,
          sql`SELECT status AS name, count(*)::int AS count FROM items
              WHERE NOT is_removed AND ${publicOnly} AND status IS NOT NULL AND source <> 'health' ${sourceCond} GROUP BY status ORDER BY count DESC, status`,
        ),
        runSql<{ source: string; at: Date | null }>(
          pool,
          sql`SELECT source::text AS source, max(finished_at) AS at FROM sync_history WHERE status IN ('success', 'unchanged') GROUP BY source`,
        ),
        runSql<{ demo: boolean }>(pool, sql`SELECT EXISTS (SELECT 1 FROM items WHERE is_demo AND NOT is_removed) AS demo`),
      ]);
      const c = returned(counts[0]);
      const lastSync = (s: string) => syncs.find((r) => r.source === s)?.at?.toISOString() ?? null;
      return {
        total: c.roadmap + c.messages + c.health,
        bySource: { roadmap: c.roadmap, messages: c.messages, health: c.health },
        byStatus: statuses,
        newLast7Days: c.newitems,
        updatedLast7Days: c.updated,
        featured: c.featured,
        lastSync: { roadmap: lastSync('roadmap'), messages: lastSync('message_center'), health: lastSync('service_health') },
        isDemoData: demo[0]?.demo ?? false,
      };
    },

    /** Featured, non-removed items, most recently featured first; optionally only those featured within a window. */
    async featured(limit: number, window?: { start: Date; end: Date }): Promise<UnifiedItemRow[]> {
      const windowCond = window ? sql`AND items.featured_at >= ${window.start} AND items.featured_at <= ${window.end}` : sql``;
      return runSql<UnifiedItemRow>(
        pool,
        sql`SELECT ${unifiedItemStoredTextSql} FROM items WHERE items.is_featured AND NOT items.is_removed AND ${publicOnly} ${windowCond}
            ORDER BY items.featured_at DESC NULLS LAST, items.id DESC LIMIT ${limit}`,
      );
    },
  };
}
