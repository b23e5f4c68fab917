import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import { itemWhere, searchPlan, type ItemWhereFilters } from '../items/item-query.js';
import { runSeenSql, withoutTenantOwnFields } from '../items/tenant-own-fields.js';
import { unifiedItemStoredTextSql, type UnifiedItemRow } from '../items/item-mapper.js';
import { runSql } from '../items/items.repo.js';
import type { LatestChange } from './change-summary.js';
import { releaseMonthSql } from './release-month.js';

/** Entries of an item feed: the newest by last activity. */
export const FEED_ENTRY_LIMIT = 100;
/** Items in a release calendar at most (a subscribed calendar of thousands of events is slow in every client). */
export const CALENDAR_ITEM_LIMIT = 2000;

export interface FeedItemRow extends UnifiedItemRow {
  /** Last activity: modifiedDate, else createdDate (the list's definition). */
  activity: Date | null;
  historyId: number | null;
  latest: LatestChange | null;
}

/** A Message Center post with rollout windows (items.timing), for the calendar. */
export interface RolloutItemRow extends UnifiedItemRow {
  firstSeenAt: Date;
}

export interface ReleaseItemRow extends UnifiedItemRow {
  /** `YYYY-MM`, or null when the item has no (parsable) GA / preview month. */
  gaMonth: string | null;
  previewMonth: string | null;
  /** How often the GA / preview date moved (change history entries that changed it): the events' SEQUENCE. */
  gaMoves: number;
  previewMoves: number;
  /** When the date last moved, else when the item was first seen: the events' DTSTAMP. */
  gaStampedAt: Date;
  previewStampedAt: Date;
}

interface LatestColumns {
  historyId: number | null;
  changeType: LatestChange['changeType'] | null;
  changeDate: Date | null;
  changedFields: string[] | null;
  previousValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  /** Whether the reader may see the tenant whose run recorded the change (a run of no tenant: yes). */
  runSeen: boolean | null;
}

const dateMoves = (field: string) => sql`(SELECT count(*)::int FROM item_history h WHERE h.item_id = items.id AND ${field} = ANY(h.changed_fields))`;
const dateStamp = (field: string) =>
  sql`coalesce((SELECT max(h.change_date) FROM item_history h WHERE h.item_id = items.id AND ${field} = ANY(h.changed_fields)), items.first_seen_at)`;

/** Reads behind the feeds. Filters are the list's (`itemWhere`), so a feed holds exactly the rows the list would. */
export function createFeedItemsRepo(pool: pg.Pool) {
  return {
    /**
     * The newest `limit` matching items by last activity, each with its latest change history entry. Two index
     * walks (modified date, and created date for the rare item without one) instead of sorting every match by
     * coalesce(modified, created), which no index serves.
     */
    async newestByActivity(filters: ItemWhereFilters, now: Date, limit = FEED_ENTRY_LIMIT): Promise<FeedItemRow[]> {
      const where = itemWhere(filters, now, searchPlan(filters.search));
      const rows = await runSql<UnifiedItemRow & LatestColumns & { activity: Date | null }>(
        pool,
        sql`WITH candidates AS (
            (SELECT items.id, items.modified_date AS activity FROM items WHERE ${where} AND items.modified_date IS NOT NULL
              ORDER BY items.modified_date DESC NULLS LAST, items.id DESC NULLS LAST LIMIT ${limit})
            UNION ALL
            (SELECT items.id, items.created_date AS activity FROM items WHERE ${where} AND items.modified_date IS NULL
              ORDER BY items.created_date DESC NULLS LAST, items.id DESC NULLS LAST LIMIT ${limit})),
          top AS (SELECT * FROM candidates ORDER BY activity DESC NULLS LAST, id DESC LIMIT ${limit})
          SELECT ${unifiedItemStoredTextSql}, top.activity AS "activity", h.id AS "historyId", h.change_type AS "changeType",
            h.change_date AS "changeDate", h.changed_fields AS "changedFields", h.previous_values AS "previousValues", h.new_values AS "newValues",
            ${runSeenSql(filters.tenantScope)} AS "runSeen"
          FROM top JOIN items ON items.id = top.id
          LEFT JOIN LATERAL (SELECT * FROM item_history WHERE item_history.item_id = items.id ORDER BY change_date DESC, id DESC LIMIT 1) h ON true
          ORDER BY top.activity DESC NULLS LAST, top.id DESC`,
      );
      return rows.map(({ historyId, changeType, changeDate, changedFields, previousValues, newValues, runSeen, ...row }) => {
        const latest =
          changeType && changeDate
            ? { changeType, changeDate, changedFields: changedFields ?? [], previousValues: previousValues ?? {}, newValues: newValues ?? {} }
            : null;
        // A change a run of a tenant the reader may not see recorded: without that tenant's own fields.
        return { ...row, historyId, latest: latest && runSeen === false ? withoutTenantOwnFields(latest) : latest };
      });
    },

    /**
     * Matching roadmap items whose GA or preview month is `fromMonth` (`YYYY-MM-01`) or later, soonest first, with
     * what their calendar events need.
     */
    async releases(filters: ItemWhereFilters, now: Date, fromMonth: string, limit = CALENDAR_ITEM_LIMIT): Promise<ReleaseItemRow[]> {
      const where = itemWhere(filters, now, searchPlan(filters.search));
      return runSql<ReleaseItemRow>(pool, releasesSql(where, { from: fromMonth, limit }));
    },

    /** Matching Message Center posts with a rollout window ending on `fromDay` (`YYYY-MM-DD`) or later, soonest first. */
    async rollouts(filters: ItemWhereFilters, now: Date, fromDay: string, limit = CALENDAR_ITEM_LIMIT): Promise<RolloutItemRow[]> {
      const where = itemWhere(filters, now, searchPlan(filters.search));
      return runSql<RolloutItemRow>(
        pool,
        sql`SELECT ${unifiedItemStoredTextSql}, items.first_seen_at AS "firstSeenAt" FROM items
          WHERE ${where} AND items.source = 'messages'::item_source AND items.timing_end >= ${fromDay}::date
          ORDER BY items.timing_start ASC, items.id ASC LIMIT ${limit}`,
      );
    },
  };
}

/**
 * Roadmap items of `where` with a GA (or, unless `gaOnly`, a preview) month in the range (`YYYY-MM-01` dates,
 * inclusive), soonest first: the release calendar feed and the MCP release_calendar tool.
 */
export function releasesSql(where: SQL, range: { from: string; to?: string; gaOnly?: boolean; limit: number }): SQL {
  const inRange = (month: SQL) => (range.to ? sql`(${month} >= ${range.from}::date AND ${month} <= ${range.to}::date)` : sql`${month} >= ${range.from}::date`);
  const months = sql`(SELECT items.id, ${releaseMonthSql(sql`items.release_date`)} AS ga, ${releaseMonthSql(sql`items.preview_date`)} AS pv
      FROM items WHERE ${where} AND items.source = 'roadmap'::item_source)`;
  const when = range.gaOnly ? inRange(sql`m.ga`) : sql`(${inRange(sql`m.ga`)} OR ${inRange(sql`m.pv`)})`;
  return sql`SELECT ${unifiedItemStoredTextSql}, to_char(m.ga, 'YYYY-MM') AS "gaMonth", to_char(m.pv, 'YYYY-MM') AS "previewMonth",
      ${dateMoves('releaseDate')} AS "gaMoves", ${dateMoves('previewDate')} AS "previewMoves",
      ${dateStamp('releaseDate')} AS "gaStampedAt", ${dateStamp('previewDate')} AS "previewStampedAt"
    FROM ${months} AS m JOIN items ON items.id = m.id
    WHERE ${when}
    ORDER BY ${range.gaOnly ? sql`m.ga` : sql`least(m.ga, m.pv)`} ASC, items.title ASC, items.id ASC
    LIMIT ${range.limit}`;
}
