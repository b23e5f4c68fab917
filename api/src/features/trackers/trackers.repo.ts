import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TrackerAttempt } from '@radar/contracts';
import type { DbOrTx } from '../../db/client.js';
import { returned } from '../../db/returned.js';
import { trackers, trackerAttempts, trackerLinks, trackerOutbox, triageRecords } from '../../db/schema/index.js';
import { claimDue, purgeFinished, purgeLog, recordSuccess, releaseClaims, type RecordSpec } from '../../outbox/index.js';
import { type TenantScope } from '../items/item-query.js';
import { visibleTriageRecord } from '../triage/triage-views.js';

export type TrackerRow = typeof trackers.$inferSelect;
export type TrackerLinkRow = typeof trackerLinks.$inferSelect;
export type TrackerOutboxRow = typeof trackerOutbox.$inferSelect;

/** Entries the delivery log shows, newest first. */
export const ATTEMPT_LOG_LIMIT = 100;

export function createTrackersRepo(db: DbOrTx) {
  return {
    async list(): Promise<(TrackerRow & { linkedTasks: number; openTasks: number })[]> {
      const rows = await db.select().from(trackers).orderBy(trackers.id);
      const { rows: counts } = await db.execute<{ integration_id: number; linked: number; open: number }>(sql`
        SELECT integration_id, count(*)::int AS linked, count(*) FILTER (WHERE status = 'open')::int AS open
        FROM tracker_links GROUP BY integration_id`);
      const by = new Map(counts.map((c) => [Number(c.integration_id), c]));
      return rows.map((r) => ({ ...r, linkedTasks: Number(by.get(r.id)?.linked ?? 0), openTasks: Number(by.get(r.id)?.open ?? 0) }));
    },

    /** The trackers that take pushes now (not paused), by name. */
    async active(): Promise<{ id: number; name: string; kind: string }[]> {
      return db
        .select({ id: trackers.id, name: trackers.name, kind: trackers.kind })
        .from(trackers)
        .where(eq(trackers.paused, false))
        .orderBy(trackers.name, trackers.id);
    },

    /** One tracker's linked tasks and how many of them are open. */
    async taskCounts(id: number): Promise<{ linkedTasks: number; openTasks: number }> {
      const { rows } = await db.execute<{ linked: number; open: number }>(sql`
        SELECT count(*)::int AS linked, count(*) FILTER (WHERE status = 'open')::int AS open FROM tracker_links WHERE integration_id = ${id}`);
      return { linkedTasks: Number(rows[0]?.linked ?? 0), openTasks: Number(rows[0]?.open ?? 0) };
    },

    async byId(id: number): Promise<TrackerRow | null> {
      const [row] = await db.select().from(trackers).where(eq(trackers.id, id));
      return row ?? null;
    },

    /** The tracker, its row locked until the transaction ends (one process renews an OAuth token at a time). */
    async lockedById(id: number): Promise<TrackerRow | null> {
      const [row] = await db.select().from(trackers).where(eq(trackers.id, id)).for('update');
      return row ?? null;
    },

    async count(): Promise<number> {
      const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM integrations`);
      return Number(rows[0]?.n ?? 0);
    },

    async insert(values: typeof trackers.$inferInsert): Promise<TrackerRow> {
      return returned((await db.insert(trackers).values(values).returning())[0]);
    },

    async update(id: number, set: Partial<typeof trackers.$inferInsert>): Promise<void> {
      await db.update(trackers).set(set).where(eq(trackers.id, id));
    },

    async remove(id: number): Promise<void> {
      await db.delete(trackers).where(eq(trackers.id, id));
    },

    /** A success: the failure streak ends (the pull's reads count too). */
    async recordSuccess(id: number): Promise<void> {
      await recordSuccess(db, trackers, id);
    },

    // ------------------------------------------------------------------ links

    /** The record's link to the tracker, locked for this transaction (one push at a time per link). */
    async lockedLink(trackerId: number, recordId: number): Promise<TrackerLinkRow | null> {
      const { rows } = await db.execute<{ id: number }>(
        sql`SELECT id FROM tracker_links WHERE integration_id = ${trackerId} AND record_id = ${recordId} FOR UPDATE`,
      );
      const id = rows[0]?.id;
      return id === undefined ? null : this.link(Number(id));
    },

    async link(id: number): Promise<TrackerLinkRow | null> {
      const [row] = await db.select().from(trackerLinks).where(eq(trackerLinks.id, id));
      return row ?? null;
    },

    /** A new link; null when one was made for the record meanwhile. */
    async insertLink(values: typeof trackerLinks.$inferInsert): Promise<TrackerLinkRow | null> {
      const [row] = await db
        .insert(trackerLinks)
        .values(values)
        .onConflictDoNothing({ target: [trackerLinks.trackerId, trackerLinks.recordId] })
        .returning();
      return row ?? null;
    },

    async updateLink(id: number, set: Partial<typeof trackerLinks.$inferInsert>): Promise<void> {
      await db.update(trackerLinks).set(set).where(eq(trackerLinks.id, id));
    },

    /** The item's links (of the records the caller may see), with their tracker's name and kind and the record's tenant. */
    async linksOfItem(itemId: number, scope: TenantScope | undefined) {
      // `tr` is the alias the visibility rule names.
      const tr = alias(triageRecords, 'tr');
      return db
        .select({ link: trackerLinks, trackerName: trackers.name, kind: trackers.kind, tenantId: tr.tenantId })
        .from(trackerLinks)
        .innerJoin(trackers, eq(trackers.id, trackerLinks.trackerId))
        .innerJoin(tr, eq(tr.id, trackerLinks.recordId))
        .where(and(eq(tr.itemId, itemId), visibleTriageRecord(scope)))
        .orderBy(sql`${tr.tenantId} NULLS FIRST`, trackers.name, trackerLinks.id);
    },

    /** The links of records whose tasks exist in their tracker (made, and not deleted there or given up). */
    async madeLinksOfRecords(recordIds: readonly number[]): Promise<{ id: number; trackerId: number }[]> {
      if (recordIds.length === 0) return [];
      const { rows } = await db.execute<{ id: number; integration_id: number }>(sql`
        SELECT id, integration_id FROM tracker_links
        WHERE record_id = ANY(${sql.param([...recordIds])}::int[]) AND external_id IS NOT NULL AND status IN ('open', 'done')
        ORDER BY id`);
      return rows.map((r) => ({ id: Number(r.id), trackerId: Number(r.integration_id) }));
    },

    /** Links of items, by item id (the sync's changes become comments on their tasks). */
    async linksOfItems(itemIds: readonly number[]): Promise<{ id: number; trackerId: number; itemId: number }[]> {
      if (itemIds.length === 0) return [];
      const { rows } = await db.execute<{ id: number; integration_id: number; item_id: number }>(sql`
        SELECT l.id, l.integration_id, tr.item_id FROM tracker_links l JOIN triage_records tr ON tr.id = l.record_id
        WHERE tr.item_id = ANY(${sql.param([...itemIds])}::int[]) AND l.status IN ('open', 'done', 'queued')`);
      return rows.map((r) => ({ id: Number(r.id), trackerId: Number(r.integration_id), itemId: Number(r.item_id) }));
    },

    /** The tracker's tasks to read now: those read longest ago first. */
    async linksToPull(trackerId: number, limit: number): Promise<TrackerLinkRow[]> {
      return db
        .select()
        .from(trackerLinks)
        .where(and(eq(trackerLinks.trackerId, trackerId), inArray(trackerLinks.status, ['open', 'done']), sql`${trackerLinks.externalId} IS NOT NULL`))
        .orderBy(sql`${trackerLinks.lastPulledAt} ASC NULLS FIRST`, trackerLinks.id)
        .limit(limit);
    },

    /** Syncs since `since` that changed items, oldest first (the pull's catch-up of comments a crash missed). */
    async changedSyncsSince(since: Date): Promise<number[]> {
      const { rows } = await db.execute<{ id: number }>(sql`
        SELECT id FROM sync_history
        WHERE status = 'success' AND started_at >= ${since} AND changed_items + removed_items + restored_items > 0
        ORDER BY id`);
      return rows.map((r) => Number(r.id));
    },

    /** Whether any task is linked at all (nothing to comment on otherwise). */
    async hasLinks(): Promise<boolean> {
      const { rows } = await db.execute(sql`SELECT 1 FROM tracker_links LIMIT 1`);
      return rows.length > 0;
    },

    // ------------------------------------------------------------------ outbox

    /** Queues a call unless the same call is waiting for the link already (a second push joins the first). */
    /** Queues a call; a create or update joins one already waiting or in flight for the link, unless `alone`. */
    async enqueue(values: {
      trackerId: number;
      linkId: number;
      action: 'create' | 'update' | 'comment';
      text?: string;
      dedupeKey?: string;
      now: Date;
      alone?: boolean;
    }) {
      if (values.action !== 'comment' && !values.alone) {
        const { rows } = await db.execute<{ id: number }>(sql`
          SELECT id FROM tracker_outbox WHERE link_id = ${values.linkId} AND action IN ('create', 'update') AND status IN ('pending', 'sending') LIMIT 1`);
        if (rows[0]) return Number(rows[0].id);
      }
      const [row] = await db
        .insert(trackerOutbox)
        .values({
          trackerId: values.trackerId,
          linkId: values.linkId,
          action: values.action,
          text: values.text ?? null,
          dedupeKey: values.dedupeKey ?? null,
          createdAt: values.now,
          nextAttemptAt: values.now,
        })
        .onConflictDoNothing({ target: trackerOutbox.dedupeKey })
        .returning({ id: trackerOutbox.id });
      return row?.id ?? null;
    },

    /**
     * Claims up to `limit` due calls of unpaused trackers (attempts + 1, leased for `leaseMs`), oldest first; the
     * shared outbox claim (FOR UPDATE SKIP LOCKED), so two workers never make the same call. `onlyIds` restricts to given calls.
     */
    async claimDue(now: Date, limit: number, leaseMs: number, onlyIds?: number[]): Promise<TrackerOutboxRow[]> {
      return claimDue(db, trackerOutbox, {
        now,
        leaseMs,
        limit,
        join: sql`JOIN ${trackers} ON ${trackers.id} = ${trackerOutbox.trackerId}`,
        where: sql`NOT ${trackers.paused}`,
        onlyIds,
      });
    },

    /** Claimed calls a stopping process will not make: due again at once. */
    async release(ids: number[], now: Date): Promise<void> {
      await releaseClaims(db, trackerOutbox, ids, now);
    },

    /** The link's latest call not yet made or given up, for the task's state. */
    async pendingOf(linkIds: number[]): Promise<Map<number, TrackerOutboxRow>> {
      if (linkIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(trackerOutbox)
        .where(and(inArray(trackerOutbox.linkId, linkIds), inArray(trackerOutbox.status, ['pending', 'sending'])))
        .orderBy(trackerOutbox.id);
      return new Map(rows.map((r) => [r.linkId, r]));
    },

    // ------------------------------------------------------------------ log

    async insertAttempt(values: typeof trackerAttempts.$inferInsert): Promise<void> {
      await db.insert(trackerAttempts).values(values);
    },

    async attempts(trackerId: number): Promise<TrackerAttempt[]> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT a.id, a.attempted_at, a.action, a.outcome, a.status_code, a.latency_ms, a.response_excerpt, a.error, l.external_key
        FROM tracker_attempts a LEFT JOIN tracker_links l ON l.id = a.link_id
        WHERE a.integration_id = ${trackerId}
        ORDER BY a.attempted_at DESC, a.id DESC LIMIT ${ATTEMPT_LOG_LIMIT}`);
      return rows.map((r) => ({
        id: Number(r.id),
        at: new Date(r.attempted_at as string).toISOString(),
        action: String(r.action),
        taskKey: (r.external_key as string | null) ?? null,
        outcome: r.outcome as TrackerAttempt['outcome'],
        statusCode: r.status_code === null ? null : Number(r.status_code),
        latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
        response: String(r.response_excerpt ?? ''),
        error: (r.error as string | null) ?? null,
      }));
    },

    /** Log entries and finished calls older than `before` go (the tracker-pull job's sweep). */
    async pruneAttempts(before: Date): Promise<void> {
      await purgeLog(db, trackerAttempts, before);
      await purgeFinished(db, trackerOutbox, before);
    },
  };
}

export type TrackersRepo = ReturnType<typeof createTrackersRepo>;

/** A queued call as the shared outbox records its attempts. */
export const callInOutbox = (row: Pick<TrackerOutboxRow, 'id' | 'attempts'>): NonNullable<RecordSpec['row']> => ({
  table: trackerOutbox,
  id: row.id,
  attempts: row.attempts,
});

/** A tracker's failure streak in the shared outbox's terms. */
export const trackerStreak = (trackerId: number, pauseAfter: number, reason: string): NonNullable<RecordSpec['streak']> => ({
  table: trackers,
  id: trackerId,
  pauseAfter,
  reason,
});
