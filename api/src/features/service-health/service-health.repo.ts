import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { itemHistory, type ItemRow } from '../../db/schema/index.js';
import { tenantCondition, type TenantScope } from '../items/item-query.js';
import { unifiedItemAnswerSql, type UnifiedItemRow } from '../items/item-mapper.js';

/** How far before an issue's start and after its end a post or roadmap item still counts as "the same weeks". */
export const RELATED_WINDOW_DAYS = 14;
export const RELATED_LIMIT = 10;

/**
 * A service or product by the name all three sources share: Service Health and Message Center say "Exchange Online",
 * the roadmap "Exchange"; "OneDrive for Business" is "OneDrive" on the roadmap. Lower case.
 */
export function serviceKey(name: string): string {
  return name
    .replace(/\s+(Online|for Business)$/i, '')
    .trim()
    .toLowerCase();
}

/** The same rule in SQL, for a product name of a row. */
const SERVICE_KEY_SQL = (column: SQL) => sql`lower(trim(regexp_replace(${column}, '\\s+(Online|for Business)$', '', 'i')))`;

const DAY_MS = 24 * 60 * 60 * 1000;
/** A post's weeks end at its end date, but a post that runs for months is not about every incident of them. */
const POST_WEEKS_MAX_DAYS = 90;

type ItemWeeks = Pick<ItemRow, 'id' | 'source' | 'products' | 'createdDate' | 'firstSeenAt' | 'modifiedDate' | 'endDate' | 'timingStart' | 'timingEnd'>;

/**
 * The weeks an item is about: an issue from its start to its end (else its last change); a post from its publication
 * to its end date when that is within POST_WEEKS_MAX_DAYS (else its publication alone); a roadmap item its release
 * month (when it reaches tenants), else when it was published.
 */
export function weeksOf(row: ItemWeeks): { from: Date; to: Date } {
  const published = row.createdDate ?? row.firstSeenAt;
  if (row.source === 'health') return { from: published, to: row.endDate ?? row.modifiedDate ?? published };
  if (row.source === 'messages') {
    const soonEnough = row.endDate && row.endDate.getTime() < published.getTime() + POST_WEEKS_MAX_DAYS * DAY_MS;
    return { from: published, to: soonEnough && row.endDate ? row.endDate : published };
  }
  const from = row.timingStart ? new Date(`${row.timingStart}T00:00:00Z`) : published;
  return { from, to: row.timingEnd ? new Date(`${row.timingEnd}T23:59:59Z`) : (row.modifiedDate ?? from) };
}

export function createServiceHealthRepo(db: DbOrTx) {
  const repo = {
    /**
     * Items of other sources about the same service around the same weeks: items of `sources` with a product that is
     * one of `services` (by the name the sources share, serviceKey) whose publication, last change or rollout falls
     * within RELATED_WINDOW_DAYS of [from, to]; closest in time first. Removed and expired ones count: an old incident
     * is read beside the posts of its time.
     */
    async related(args: {
      sources: ('messages' | 'roadmap' | 'health')[];
      services: readonly string[];
      from: Date;
      to: Date;
      excludeId: number;
      scope: TenantScope | undefined;
    }): Promise<UnifiedItemRow[]> {
      const keys = [...new Set(args.services.map(serviceKey).filter(Boolean))];
      if (keys.length === 0 || args.sources.length === 0) return [];
      const from = new Date(args.from.getTime() - RELATED_WINDOW_DAYS * DAY_MS);
      const to = new Date(args.to.getTime() + RELATED_WINDOW_DAYS * DAY_MS);
      const visible = tenantCondition(args.scope) ?? sql`true`;
      const result = await db.execute<UnifiedItemRow>(sql`
        SELECT ${unifiedItemAnswerSql} FROM items
        WHERE items.source = ANY(${sql.param(args.sources)}::item_source[])
          AND EXISTS (SELECT 1 FROM unnest(items.products) AS p(name) WHERE ${SERVICE_KEY_SQL(sql`p.name`)} = ANY(${sql.param(keys)}::text[]))
          AND items.id <> ${args.excludeId}
          AND ${visible}
          AND (coalesce(items.created_date, items.first_seen_at) BETWEEN ${from} AND ${to}
               OR items.modified_date BETWEEN ${from} AND ${to}
               OR (items.timing_start <= ${to}::date AND items.timing_end >= ${from}::date))
        ORDER BY abs(extract(epoch FROM coalesce(items.created_date, items.first_seen_at) - ${args.from}::timestamptz)), items.id DESC
        LIMIT ${RELATED_LIMIT}`);
      return result.rows;
    },

    /** The statuses an issue went through, oldest first: the one it had when first seen, then each recorded change. */
    async statusSteps(itemId: number): Promise<{ status: string; at: Date }[]> {
      const rows = await db
        .select({ changeType: itemHistory.changeType, changeDate: itemHistory.changeDate, newValues: itemHistory.newValues, fields: itemHistory.changedFields })
        .from(itemHistory)
        .where(and(eq(itemHistory.itemId, itemId), sql`(${itemHistory.changeType} = 'new' OR 'healthStatus' = ANY(${itemHistory.changedFields}))`))
        .orderBy(asc(itemHistory.changeDate), asc(itemHistory.id));
      return rows.flatMap((r) => {
        const status = r.newValues.healthStatus;
        return typeof status === 'string' ? [{ status, at: r.changeDate }] : [];
      });
    },
  };
  return {
    ...repo,
    /**
     * What `row` is read beside: for an issue the posts and roadmap items of its service in its weeks; for a post or a
     * roadmap item the issues of its services in its weeks (weeksOf), of the tenants the caller may see.
     */
    relatedTo(row: ItemWeeks, scope: TenantScope | undefined): Promise<UnifiedItemRow[]> {
      const { from, to } = weeksOf(row);
      const sources: ('messages' | 'roadmap' | 'health')[] = row.source === 'health' ? ['messages', 'roadmap'] : ['health'];
      return repo.related({ sources, services: row.products, from, to, excludeId: row.id, scope });
    },
  };
}
